"""Formula text -> expression tree: the nodes (:mod:`.tree`), the engine's own reader
(:mod:`.reader`) and ``formulas``' tokenizer for what it leaves (:mod:`.tokens`), the names functions
are stored under (:mod:`.function_names`), the shape of a formula filled down a column
(:mod:`.filled_down`), and the values a formula's parts hand each other (:mod:`.values`)."""
