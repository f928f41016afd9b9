# Lint: every module under rtl/ (and the synthesis shells) alone with its
# default parameters, then every co-simulation variant with its parameters.
.PHONY: lint-rtl
lint-rtl:
	@set -e; for f in $(RTL_SRCS) $(SYNTH_SRCS); do \
		m=$$(basename $$f .v); \
		echo "lint $$m"; \
		$(VERILATOR) --lint-only -Wall -y rtl -y scripts/synth --top-module $$m $$f; \
		$(IVERILOG) -g2005 -I rtl -y rtl -y scripts/synth -s $$m -o /dev/null $$f; \
	done
	@set -e; $(foreach v,$(SIM_VARIANTS),echo "lint $(v)"; \
		$(VERILATOR) --lint-only -Wall -y rtl $(SIM_ARGS_$(v));)
	@set -e; for w in 256 512; do echo "lint mpa_rx DATA_WIDTH=$$w"; \
		$(VERILATOR) --lint-only -Wall -y rtl --top-module mpa_rx -GDATA_WIDTH=$$w rtl/mpa_rx.v; done

