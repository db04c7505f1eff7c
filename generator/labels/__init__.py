"""Label agreement for a suite's labelled documents: label files per labeller, the second labeller's
sample, the blind adjudication sheet, and the agreement and label error rates the site shows."""
