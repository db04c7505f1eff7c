"""Human checks of the scorers: a seeded sample of verdicts judged by a person (`tally audit`)."""
