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


# The example top (examples/, docs/axi.md "Integration"). `make test` runs
# example-lint: Verilator -Wall, Icarus, and Yosys's elaboration (hierarchy
# -check, proc). `make example` adds the iCE40 synthesis (cell counts; it
# is not meant to fit an HX8K; about 15 minutes on two cores).
EXAMPLE_SRCS := $(sort $(wildcard examples/*.v))
EXAMPLE_TOP  := mpa_rx_example_xdma
.PHONY: example example-lint
example-lint:
	@echo "lint $(EXAMPLE_TOP)"
	@$(VERILATOR) --lint-only -Wall -Irtl -y rtl --top-module $(EXAMPLE_TOP) $(EXAMPLE_SRCS)
	@$(IVERILOG) -g2005 -I rtl -y rtl -s $(EXAMPLE_TOP) -o /dev/null $(EXAMPLE_SRCS)
	@$(YOSYS) -q -p "$(YOSYS_READ) $(AXI_TOP_SRCS) $(EXAMPLE_SRCS); hierarchy -check -top $(EXAMPLE_TOP); proc" >/dev/null

example: $(RTL_BUILD)/synth/example.txt
	@grep -E 'Number of cells|SB_LUT4|SB_DFF|SB_RAM40_4K' $< | head -8

$(RTL_BUILD)/synth/example.txt: $(EXAMPLE_SRCS) $(AXI_TOP_SRCS) $(RTL_INCS)
	@$(MAKE) --no-print-directory example-lint
	@mkdir -p $(@D)
	@echo "synth_ice40 $(EXAMPLE_TOP)"
	@$(YOSYS) -q -l $@.log -p "$(YOSYS_READ) $(AXI_TOP_SRCS) $(EXAMPLE_SRCS); synth_ice40 -top $(EXAMPLE_TOP); \
		tee -q -o $@.tmp stat" >/dev/null
	@mv $@.tmp $@
