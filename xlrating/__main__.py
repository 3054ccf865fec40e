from xlrating.cli import main

main(prog_name="xlrating")
