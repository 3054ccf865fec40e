"""Reading, validating and annotating submitted workbooks; building the templates."""
