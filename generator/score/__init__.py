"""Scorer A: comparators by field type and verdict rows."""
