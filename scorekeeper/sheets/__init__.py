"""The printed sheets: the sheet as data, its page layout, the PDF, and their pages."""
