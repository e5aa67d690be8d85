# Convenience targets; the scripts are the source of truth.
.PHONY: run test bench fuzz
run:
	bash scripts/run.sh
test:
	bash scripts/test.sh
bench:
	bash scripts/bench.sh
fuzz:
	bash scripts/fuzz.sh
