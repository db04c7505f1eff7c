"""Parsing: a stored response record to an answer object, and answer values to typed values."""
