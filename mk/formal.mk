# Formal proofs (docs/robustness.md, "Formal proofs"): the `ifdef FORMAL`
# properties of the RTL, proven with Yosys and yosys-smtbmc (z3), one proof
# per line of scripts/formal/proofs.txt (module, parameters, defines,
# method and depth, expected result), run by scripts/formal/prove.sh.
#
#   make formal                        every proof of the CI set (the table's last column
#                                      empty), FORMAL_JOBS at a time, then the table; fails on
#                                      any failed proof, or when the proofs' CPU time over
#                                      FORMAL_JOBS cores is past FORMAL_BUDGET seconds
#   make formal-full                   every proof of the table, the long ones too (set
#                                      "full": mpa_rx_ddp and mpa_rx_place with cvc5, minutes
#                                      each), FORMAL_FULL_TIMEOUT seconds per solver run
#   make formal FORMAL_ONLY="a b"      only these proofs
#   make formal-mutants                every mutant of scripts/formal/mutants.txt: a small
#                                      fault in a copy of the RTL whose proof must fail
#
# Every proof runs each time (a proof's time is part of its result); its
# logs, model and any counterexample trace stay in $(FORMAL_DIR)/<proof>/.
# The proof names are read from the table when make reads this file: awk
# only, no installed tool is asked (make check-make).

FORMAL_DIR     := $(RTL_BUILD)/formal
MUTANT_DIR     := $(RTL_BUILD)/formal-mutants
FORMAL_TABLE   := scripts/formal/proofs.txt
MUTANT_TABLE   := scripts/formal/mutants.txt
FORMAL_JOBS    ?= 2
# seconds for the whole of `make formal` on this 2-core machine: the CPU time
# of its proofs over FORMAL_JOBS cores (the wall time on the machine alone;
# the table shows the wall time of the run too, which load from other jobs
# stretches)
FORMAL_BUDGET  ?= 600
# seconds (wall) for one solver run before it counts as failed (TIMEOUT): the
# longest, mpa_rx_place's write window's induction step, takes 170 to 310 s of
# CPU, and a shared machine stretches its wall time
FORMAL_TIMEOUT ?= 1800
# seconds for one solver run of make formal-full
FORMAL_FULL_TIMEOUT ?= 3600
FORMAL_ALL     := $(shell awk -F'|' 'NF >= 10 { k = $$1; gsub(/[ \t]/, "", k); if (substr(k, 1, 1) != sprintf("%c", 35)) print k }' $(FORMAL_TABLE))
FORMAL_PROOFS  := $(shell awk -F'|' 'NF >= 10 { k = $$1; gsub(/[ \t]/, "", k); s = $$12; gsub(/[ \t]/, "", s); if (substr(k, 1, 1) != sprintf("%c", 35) && s != "full") print k }' $(FORMAL_TABLE))
FORMAL_MUTANTS := $(shell awk -v RS= '{ for (i = 1; i < NF; i++) if ($$i == "name:") print $$(i+1) }' $(MUTANT_TABLE))
FORMAL_ONLY    ?= $(FORMAL_PROOFS)
MUTANTS_ONLY   ?= $(FORMAL_MUTANTS)

.PHONY: formal formal-full formal-mutants formal-run mutants-run

formal:
	@mkdir -p $(FORMAL_DIR)
	@start=$$(date +%s); \
	 $(MAKE) --no-print-directory -k -j$(FORMAL_JOBS) formal-run; \
	 sh scripts/formal/summary.sh proofs $(FORMAL_DIR) $$start $(FORMAL_BUDGET) $(FORMAL_JOBS) $(FORMAL_ONLY)

formal-full:
	@$(MAKE) --no-print-directory formal FORMAL_ONLY="$(FORMAL_ALL)" FORMAL_TIMEOUT=$(FORMAL_FULL_TIMEOUT) FORMAL_BUDGET=0

formal-run: $(FORMAL_ONLY:%=$(FORMAL_DIR)/%.result)

$(FORMAL_DIR)/%.result: rtl-force
	@rm -f $@
	@FORMAL_TIMEOUT=$(FORMAL_TIMEOUT) sh scripts/formal/prove.sh $* $(FORMAL_DIR)

formal-mutants:
	@mkdir -p $(MUTANT_DIR)
	@start=$$(date +%s); \
	 $(MAKE) --no-print-directory -k -j$(FORMAL_JOBS) mutants-run; \
	 sh scripts/formal/summary.sh mutants $(MUTANT_DIR) $$start 0 $(FORMAL_JOBS) $(MUTANTS_ONLY)

mutants-run: $(MUTANTS_ONLY:%=$(MUTANT_DIR)/%.result)

$(MUTANT_DIR)/%.result: rtl-force
	@rm -f $@
	@FORMAL_TIMEOUT=$(FORMAL_TIMEOUT) sh scripts/formal/mutant.sh $* $(MUTANT_DIR)
