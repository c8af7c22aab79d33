"""scorekeeper: keep score for Oh Hell at the table."""
