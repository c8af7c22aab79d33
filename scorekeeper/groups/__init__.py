"""Groups (GROUPS.md): their pages, their figures and ratings, their CSV files and season sheet."""
