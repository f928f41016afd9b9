# RTL, Verilator co-simulation and synthesis rules (owned by the co-simulation
# work; see docs/cosim.md and docs/synth.md). Included by the top Makefile,
# which defines GO and uses SIM_LIBS, lint-rtl and clean-rtl.
#
# Everything is built under $(RTL_BUILD) (sim/.gitignore). Each rule has real
# file targets, so `make` rebuilds only what changed: one variant's Verilator
# model when its sources or parameters change, the shim when the model's
# header changes, the library archive when any member changes.

RTL_BUILD ?= sim/build
VERILATOR ?= verilator
IVERILOG  ?= iverilog
YOSYS     ?= yosys
NEXTPNR   ?= nextpnr-ice40
SIM_CXX   ?= g++
AR        ?= ar

RTL_SRCS   := $(sort $(wildcard rtl/*.v))
SYNTH_SRCS := $(sort $(wildcard scripts/synth/*.v))

# ---------------------------------------------------------------------------
# Co-simulation models. A variant is a top module with one parameter set; all
# variants are linked into one library with their own class prefix
# (V<variant>), so several widths of one top coexist in one Go test binary.
# To add one: $(eval $(call sim_variant,NAME,TOP,SOURCES,VERILATOR_ARGS)).

# Verilator's root is asked of verilator by the shell when a recipe runs,
# never by make when it reads this file: on a fresh machine `make deps`
# installs verilator in the same make run, after the makefiles were read
# (`make check-make` checks that no recipe line comes out with an empty
# include path when verilator is absent at read time).
VL_ROOT = $$($(VERILATOR) --getenv VERILATOR_ROOT)
VL_FLAGS := --cc -O3 --x-assign fast --x-initial fast --trace-fst --trace-max-array 4096 \
	-Wno-fatal --no-timing
SIM_CXXFLAGS = -O2 -fPIC -std=gnu++17 -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd \
	-Isim -Icosim -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0 \
	-faligned-new -fcf-protection=none -Wno-bool-operation -Wno-sign-compare \
	-Wno-uninitialized -Wno-unused-but-set-variable -Wno-unused-parameter \
	-Wno-unused-variable -Wno-shadow

SIM_VARIANTS :=

# $(call sim_pos,WORD,LIST): the position of WORD in LIST (for progress lines).
sim_pos = $(words $(call _sim_upto,$(1),$(2)))
_sim_upto = $(if $(2),$(firstword $(2)) $(if $(filter $(1),$(firstword $(2))),,$(call _sim_upto,$(1),$(wordlist 2,$(words $(2)),$(2)))))
# "[n/N]" of a variant among the variants being built.
sim_progress = [$(call sim_pos,$(1),$(SIM_LIB_VARIANTS))/$(words $(SIM_LIB_VARIANTS))]

# $(call sim_variant,NAME,TOP,SOURCES,VERILATOR_ARGS)
# Everything in the rules that depends on an installed tool is written with
# $$ so that it is expanded when the recipe runs, not when make reads this.
define sim_variant
SIM_VARIANTS += $(1)
SIM_ARGS_$(1) := --top-module $(2) $(4) $(3)

$(RTL_BUILD)/$(1)/args.txt: rtl-force
	@mkdir -p $$(@D)
	@echo '$(2) $(3) $(4)' | cmp -s - $$@ || echo '$(2) $(3) $(4)' > $$@

$(RTL_BUILD)/$(1)/verilated.stamp: $(3) $(RTL_BUILD)/$(1)/args.txt $(RTL_BUILD)/verilator-version.txt
	@echo "$$(call sim_progress,$(1)) verilator $(1): $(2) $(4)"
	@flock $(RTL_BUILD)/$(1)/.lock $$(VERILATOR) $$(VL_FLAGS) --prefix V$(1) --top-module $(2) $(4) -y rtl \
		--Mdir $(RTL_BUILD)/$(1) $(3)
	@touch $$@

$(RTL_BUILD)/$(1)/V$(1)__ALL.a: $(RTL_BUILD)/$(1)/verilated.stamp
	@echo "$$(call sim_progress,$(1)) c++ $(1) (the Verilator model)"
	@SECONDS=0; flock $(RTL_BUILD)/$(1)/.lock $$(MAKE) -s --no-print-directory -C $(RTL_BUILD)/$(1) -f V$(1).mk -f $(CURDIR)/sim/trace-opt.mk V$(1)__ALL.a \
		CXXFLAGS=-fPIC OPT_FAST=-O3 OPT_SLOW=-O1 OPT_GLOBAL=-O2 >$(RTL_BUILD)/$(1)/build.log 2>&1 \
		|| { tail -40 $(RTL_BUILD)/$(1)/build.log; exit 1; }; \
		echo "$$(call sim_progress,$(1)) built $(1) in $$$${SECONDS}s"

$(RTL_BUILD)/$(1)/shim_$(1).cpp: $(RTL_BUILD)/$(1)/verilated.stamp $(RTL_BUILD)/shimgen
	@$(RTL_BUILD)/shimgen -variant $(1) -header $(RTL_BUILD)/$(1)/V$(1).h -o $$@

$(RTL_BUILD)/$(1)/shim_$(1).o: $(RTL_BUILD)/$(1)/shim_$(1).cpp sim/cosim_model.h cosim/mparxsim.h
	@$$(SIM_CXX) $$(SIM_CXXFLAGS) -O3 -I$(RTL_BUILD)/$(1) -c $$< -o $$@.$$$$$$$$.tmp && mv $$@.$$$$$$$$.tmp $$@
endef

SIM_WIDTHS := 64 128 256 512
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,crc32c_w$(w),crc32c,rtl/crc32c.v,-GDATA_WIDTH=$(w))))
$(foreach w,64 128 512,$(eval $(call sim_variant,mpa_rx_parse_w$(w),mpa_rx_parse,rtl/mpa_rx_parse.v,-GDATA_WIDTH=$(w))))
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,mpa_rx_walk_w$(w),mpa_rx_walk,rtl/mpa_rx_walk.v rtl/mpa_rx_walk_fifo.v rtl/crc32c.v,-GDATA_WIDTH=$(w))))
MPA_RX_SRCS := rtl/mpa_rx.v rtl/mpa_rx_parse.v rtl/mpa_rx_fifo.v rtl/mpa_rx_walk.v rtl/mpa_rx_walk_fifo.v rtl/crc32c.v rtl/mpa_rx_ddp.v rtl/mpa_rx_place.v
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,mpa_rx_w$(w),mpa_rx,$(MPA_RX_SRCS),-GDATA_WIDTH=$(w) -GMAX_FRAME=9018 -GCONN_COUNT=1024 -GSTAG_COUNT=256 -GRQ_DEPTH=32 --assert)))

# The variants linked into the library: all of them unless the command line
# names fewer (`make run` links only the receiver it runs). The library and
# its registry follow the list; the models already built are kept.
SIM_LIB_VARIANTS ?= $(SIM_VARIANTS)
SIM_VARIANT_LIBS = $(foreach v,$(SIM_LIB_VARIANTS),$(RTL_BUILD)/$(v)/V$(v)__ALL.a)
SIM_VARIANT_OBJS = $(foreach v,$(SIM_LIB_VARIANTS),$(RTL_BUILD)/$(v)/shim_$(v).o)

SIM_LIB := $(RTL_BUILD)/libmparxsim.a
SIM_STAMP := cosim/libstamp_gen.go
# The static library the cgo packages link against (package cosim), and a
# generated Go constant holding its hash: the Go build and test caches do not
# look at libraries named in #cgo LDFLAGS, so without it `go test` would
# report cached results for a changed model.
SIM_LIBS := $(SIM_LIB) $(SIM_STAMP)

VL_RUNTIME := verilated verilated_threads verilated_fst_c
VL_RUNTIME_OBJS := $(addprefix $(RTL_BUILD)/runtime/,$(addsuffix .o,$(VL_RUNTIME)))
SIM_RUNTIME_OBJS := $(RTL_BUILD)/runtime/cosim_runtime.o $(RTL_BUILD)/runtime/registry.o

.PHONY: rtl-force sim-libs lint-rtl clean-rtl synth bench-cosim
rtl-force:

sim-libs: $(SIM_LIBS)

$(RTL_BUILD)/shimgen: $(wildcard cosim/internal/shimgen/*.go)
	@mkdir -p $(@D)
	@$(GO) build -o $@ ./cosim/internal/shimgen

# Verilator's own runtime, rebuilt when the installed Verilator changes.
$(RTL_BUILD)/verilator-version.txt: rtl-force
	@mkdir -p $(@D)
	@v="$$($(VERILATOR) --version)"; echo "$$v" | cmp -s - $@ || echo "$$v" > $@

$(RTL_BUILD)/runtime/%.o: $(RTL_BUILD)/verilator-version.txt
	@mkdir -p $(@D)
	@echo "c++ Verilator runtime $*"
	@$(SIM_CXX) $(SIM_CXXFLAGS) -c $(VL_ROOT)/include/$*.cpp -o $@.$$$$.tmp && mv $@.$$$$.tmp $@

$(RTL_BUILD)/runtime/cosim_runtime.o: sim/cosim_runtime.cpp sim/cosim_model.h cosim/mparxsim.h
	@mkdir -p $(@D)
	@$(SIM_CXX) $(SIM_CXXFLAGS) -c $< -o $@.$$$$.tmp && mv $@.$$$$.tmp $@

$(RTL_BUILD)/variants.txt: rtl-force
	@mkdir -p $(@D)
	@echo '$(strip $(SIM_LIB_VARIANTS))' | cmp -s - $@ || echo '$(strip $(SIM_LIB_VARIANTS))' > $@

$(RTL_BUILD)/runtime/registry.cpp: $(RTL_BUILD)/variants.txt $(RTL_BUILD)/shimgen
	@mkdir -p $(@D)
	@$(RTL_BUILD)/shimgen -registry -o $@ $(SIM_LIB_VARIANTS)

$(RTL_BUILD)/runtime/registry.o: $(RTL_BUILD)/runtime/registry.cpp sim/cosim_model.h cosim/mparxsim.h
	@$(SIM_CXX) $(SIM_CXXFLAGS) -c $< -o $@.$$$$.tmp && mv $@.$$$$.tmp $@

# One archive: every variant's model, its shim, the runtime and the registry.
# Temporary files carry the shell's pid and Verilator steps hold a lock per
# variant, so that two make runs in one tree do not mix their outputs.
$(SIM_LIB): $(SIM_VARIANT_LIBS) $(SIM_VARIANT_OBJS) $(SIM_RUNTIME_OBJS) $(VL_RUNTIME_OBJS) $(RTL_BUILD)/variants.txt
	@t=$@.$$$$.tmp; rm -f $$t; \
	 { echo "create $$t"; \
	   for a in $(SIM_VARIANT_LIBS); do echo "addlib $$a"; done; \
	   for o in $(SIM_VARIANT_OBJS) $(SIM_RUNTIME_OBJS) $(VL_RUNTIME_OBJS); do echo "addmod $$o"; done; \
	   echo save; echo end; } | $(AR) -M && mv $$t $@
	@echo "built $@ ($(words $(SIM_LIB_VARIANTS)) variants: $(strip $(SIM_LIB_VARIANTS)))"

$(SIM_STAMP): $(SIM_LIB)
	@t=$@.$$$$.tmp; h=$$(sha256sum $< | cut -c1-64); \
	 printf '%s\n' '// Code generated by mk/rtl.mk. DO NOT EDIT.' '' 'package cosim' '' \
		'// The SHA-256 of sim/build/libmparxsim.a, linked into every binary, so' \
		'// that a new library makes new test binaries for the Go test cache.' \
		"func init() { libStamp = \"$$h\" }" > $$t; \
	 if cmp -s $$t $@; then rm $$t; touch $@; else mv $$t $@; fi

# ---------------------------------------------------------------------------
# Lint: every module under rtl/ (and the synthesis shells) alone with its
# default parameters, then every co-simulation variant with its parameters.
lint-rtl:
	@set -e; for f in $(RTL_SRCS) $(SYNTH_SRCS); do \
		m=$$(basename $$f .v); \
		echo "lint $$m"; \
		$(VERILATOR) --lint-only -Wall -y rtl -y scripts/synth --top-module $$m $$f; \
		$(IVERILOG) -g2005 -y rtl -y scripts/synth -s $$m -o /dev/null $$f; \
	done
	@set -e; $(foreach v,$(SIM_VARIANTS),echo "lint $(v)"; \
		$(VERILATOR) --lint-only -Wall -y rtl $(SIM_ARGS_$(v));)
	@set -e; for w in 256 512; do echo "lint mpa_rx DATA_WIDTH=$$w"; \
		$(VERILATOR) --lint-only -Wall -y rtl --top-module mpa_rx -GDATA_WIDTH=$$w rtl/mpa_rx.v; done

clean-rtl:
	rm -rf $(RTL_BUILD) $(SIM_STAMP)

# ---------------------------------------------------------------------------
# Synthesis (docs/synth.md): Yosys synth_ice40 and synth_xilinx of each block
# alone for LUT and flip-flop counts, nextpnr-ice40 (HX8K, seed 1) of the block
# in its shell (scripts/synth/*_shell.v) for fmax. The baseline crc32c_ref is
# measured in the same run.
SYNTH_DIR    := $(RTL_BUILD)/synth
SYNTH_BLOCKS := crc32c crc32c_ref
SYNTH_WIDTHS := 64 128 256 512
NEXTPNR_FLAGS := --hx8k --package ct256 --pcf-allow-unconstrained --timing-allow-fail \
	--seed 1 --freq 200
SYNTH_SRC_crc32c     := rtl/crc32c.v
SYNTH_SRC_crc32c_ref := scripts/synth/crc32c_ref.v

# $(call synth_rules,BLOCK,WIDTH)
define synth_rules
SYNTH_OUTS += $(SYNTH_DIR)/$(1)_w$(2).ice40.txt $(SYNTH_DIR)/$(1)_w$(2).xilinx.txt \
	$(SYNTH_DIR)/$(1)_w$(2).pnr.txt

$(SYNTH_DIR)/$(1)_w$(2).ice40.txt: $(SYNTH_SRC_$(1))
	@mkdir -p $$(@D)
	@echo "synth_ice40  $(1) DATA_WIDTH=$(2)"
	@TIMEFORMAT='yosys_seconds %R'; { time $(YOSYS) -q -l $$@.log -p "read_verilog $(SYNTH_SRC_$(1)); \
		chparam -set DATA_WIDTH $(2) $(1); synth_ice40 -top $(1); tee -q -o $$@.tmp stat" \
		>/dev/null; } 2> $$@.time
	@cat $$@.tmp $$@.time > $$@ && rm -f $$@.tmp $$@.time

$(SYNTH_DIR)/$(1)_w$(2).xilinx.txt: $(SYNTH_SRC_$(1))
	@mkdir -p $$(@D)
	@echo "synth_xilinx $(1) DATA_WIDTH=$(2)"
	@$(YOSYS) -q -l $$@.log -p "read_verilog $(SYNTH_SRC_$(1)); \
		chparam -set DATA_WIDTH $(2) $(1); synth_xilinx -top $(1); tee -q -o $$@.tmp stat" >/dev/null
	@mv $$@.tmp $$@

$(SYNTH_DIR)/$(1)_w$(2).shell.json: $(SYNTH_SRC_$(1)) scripts/synth/$(1)_shell.v
	@mkdir -p $$(@D)
	@echo "synth_ice40  $(1)_shell DATA_WIDTH=$(2)"
	@$(YOSYS) -q -l $$@.log -p "read_verilog $(SYNTH_SRC_$(1)) scripts/synth/$(1)_shell.v; \
		chparam -set DATA_WIDTH $(2) $(1)_shell; synth_ice40 -top $(1)_shell -json $$@.tmp" >/dev/null
	@mv $$@.tmp $$@

$(SYNTH_DIR)/$(1)_w$(2).pnr.txt: $(SYNTH_DIR)/$(1)_w$(2).shell.json
	@echo "nextpnr-ice40 $(1) DATA_WIDTH=$(2)"
	@$(NEXTPNR) $(NEXTPNR_FLAGS) --json $$< > $$@.tmp 2>&1 || { tail -20 $$@.tmp; exit 1; }
	@mv $$@.tmp $$@
endef

SYNTH_OUTS :=
$(foreach b,$(SYNTH_BLOCKS),$(foreach w,$(SYNTH_WIDTHS),$(eval $(call synth_rules,$(b),$(w)))))

# `make synth`: the LUT-level table first (section "LUT levels" at the end
# of this file), then the crc32c table and the receiver's iCE40 and memory
# tables.
synth: $(SYNTH_DIR)/levels.txt $(SYNTH_OUTS) $(SYNTH_DIR)/mpa_rx.txt
	@cat $(SYNTH_DIR)/levels.txt; echo
	@sh scripts/synth/report.sh $(SYNTH_DIR) "$(SYNTH_WIDTHS)"
	@echo; cat $(SYNTH_DIR)/mpa_rx.txt

# ---------------------------------------------------------------------------
# Synthesis of the whole receiver (docs/synth.md, section mpa_rx), from the
# sources in MPA_RX_SRCS with the parameter sets below (NAME=VALUE words,
# set on mpa_rx with Yosys chparam; any mpa_rx parameter may be listed):
#   ice40: synth_ice40 of mpa_rx alone (LUT, FF, RAM); synth_ice40 of
#          mpa_rx_shell (scripts/synth), nextpnr-ice40 on the HX8K (fmax,
#          logic cells, RAMs), icepack of the routed design (bitstream);
#   xc7:   synth_xilinx of mpa_rx alone (hierarchical: synth_xilinx -flatten
#          runs out of memory at 512 bits), then the mapped netlist flattened
#          and ltp over its LUT cells only (LUT depth between registers,
#          carry chains and MUXF7/F8 cut paths), and over LUT, CARRY4 and
#          MUXF7/F8 cells (each counts one);
#   mem:   the memories as designed and those left after opt_clean (logic
#          whose outputs are unused is removed), with the ice40 parameters
#          at CONN_COUNT = each of MPA_RX_MEM_CONNS, and with the xc7 ones.
# A design that does not fit is a result, not a build error: the table says
# so and no bitstream is written. All of it, with the blocks below: about
# 20 minutes of CPU, 13 of them synth_xilinx at 512 bits.
MPA_RX_ICE40_PARAMS ?= DATA_WIDTH=64 CONN_COUNT=16 FIFO_DEPTH=512
MPA_RX_XC7_PARAMS   ?= DATA_WIDTH=512 CONN_COUNT=16 FIFO_DEPTH=64
MPA_RX_MEM_CONNS    ?= 16 1024
MPA_RX_DIR := $(SYNTH_DIR)/mpa_rx
# $(call mpa_rx_chparam,PARAMS): Yosys chparam arguments
mpa_rx_chparam = $(foreach p,$(1),-set $(subst =, ,$(p)))
MPA_RX_SHELL_WIDTH = $(patsubst DATA_WIDTH=%,%,$(filter DATA_WIDTH=%,$(MPA_RX_ICE40_PARAMS)))

$(MPA_RX_DIR)/%.params: rtl-force
	@mkdir -p $(@D)
	@echo '$(MPA_RX_SRCS) | $(MPA_RX_$(*)_PARAMS)' | cmp -s - $@ || \
		echo '$(MPA_RX_SRCS) | $(MPA_RX_$(*)_PARAMS)' > $@
MPA_RX_ice40_PARAMS = $(MPA_RX_ICE40_PARAMS)
MPA_RX_xc7_PARAMS = $(MPA_RX_XC7_PARAMS)
MPA_RX_mem_PARAMS = $(MPA_RX_ICE40_PARAMS) / $(MPA_RX_XC7_PARAMS) / $(MPA_RX_MEM_CONNS)

$(MPA_RX_DIR)/ice40.txt: $(MPA_RX_SRCS) $(MPA_RX_DIR)/ice40.params
	@echo "synth_ice40  mpa_rx $(MPA_RX_ICE40_PARAMS)"
	@TIMEFORMAT='yosys_seconds %R %U'; { time $(YOSYS) -q -l $@.log -p "read_verilog $(MPA_RX_SRCS); \
		chparam $(call mpa_rx_chparam,$(MPA_RX_ICE40_PARAMS)) mpa_rx; synth_ice40 -top mpa_rx; \
		tee -q -o $@.tmp stat" >/dev/null; } 2> $@.time
	@cat $@.tmp $@.time > $@ && rm -f $@.tmp $@.time

$(MPA_RX_DIR)/shell.json: $(MPA_RX_SRCS) scripts/synth/mpa_rx_shell.v $(MPA_RX_DIR)/ice40.params
	@echo "synth_ice40  mpa_rx_shell $(MPA_RX_ICE40_PARAMS)"
	@$(YOSYS) -q -l $@.log -p "read_verilog $(MPA_RX_SRCS) scripts/synth/mpa_rx_shell.v; \
		chparam $(call mpa_rx_chparam,$(MPA_RX_ICE40_PARAMS)) mpa_rx; \
		chparam -set DATA_WIDTH $(MPA_RX_SHELL_WIDTH) mpa_rx_shell; \
		synth_ice40 -top mpa_rx_shell -json $@.tmp; tee -q -o $(MPA_RX_DIR)/shell.txt stat" >/dev/null
	@mv $@.tmp $@

# nextpnr exits non-zero when the design does not fit: the log is kept and
# the report says so; otherwise icepack writes the bitstream.
$(MPA_RX_DIR)/pnr.txt: $(MPA_RX_DIR)/shell.json
	@echo "nextpnr-ice40 mpa_rx_shell (HX8K)"
	@rm -f $(MPA_RX_DIR)/mpa_rx_shell.asc $(MPA_RX_DIR)/mpa_rx_shell.bin
	@TIMEFORMAT='nextpnr_seconds %R %U'; { time $(NEXTPNR) $(NEXTPNR_FLAGS) --json $< \
		--asc $(MPA_RX_DIR)/mpa_rx_shell.asc > $@.tmp 2>&1; } 2> $@.time \
		|| echo "nextpnr_failed" >> $@.tmp
	@cat $@.time >> $@.tmp; rm -f $@.time
	@if [ -f $(MPA_RX_DIR)/mpa_rx_shell.asc ] && ! grep -q nextpnr_failed $@.tmp; then \
		echo "icepack mpa_rx_shell"; \
		icepack $(MPA_RX_DIR)/mpa_rx_shell.asc $(MPA_RX_DIR)/mpa_rx_shell.bin && \
		echo "bitstream $(MPA_RX_DIR)/mpa_rx_shell.bin $$(wc -c < $(MPA_RX_DIR)/mpa_rx_shell.bin)" >> $@.tmp; \
	else echo "nextpnr-ice40: mpa_rx_shell does not fit (see $@)"; fi
	@mv $@.tmp $@

$(MPA_RX_DIR)/xc7.txt: $(MPA_RX_SRCS) $(MPA_RX_DIR)/xc7.params
	@echo "synth_xilinx mpa_rx $(MPA_RX_XC7_PARAMS) (several minutes)"
	@TIMEFORMAT='yosys_seconds %R %U'; { time $(YOSYS) -q -l $@.log -p "read_verilog $(MPA_RX_SRCS); \
		chparam $(call mpa_rx_chparam,$(MPA_RX_XC7_PARAMS)) mpa_rx; synth_xilinx -top mpa_rx; \
		tee -q -o $@.tmp stat; flatten; \
		tee -q -a $@.tmp ltp -noff t:LUT* w:*; \
		tee -q -a $@.tmp ltp -noff t:LUT* t:MUXF* t:CARRY4 w:*" >/dev/null; } 2> $@.time
	@cat $@.tmp $@.time > $@ && rm -f $@.tmp $@.time

# memories: one line per memory (parameter set, CONN_COUNT, all or live,
# name, width, depth)
$(MPA_RX_DIR)/mem.txt: $(MPA_RX_SRCS) $(MPA_RX_DIR)/mem.params
	@echo "memories of mpa_rx at CONN_COUNT $(MPA_RX_MEM_CONNS)"
	@rm -f $@.tmp; set -e; for set in ice40 xc7; do \
		if [ $$set = ice40 ]; then p='$(MPA_RX_ICE40_PARAMS)'; else p='$(MPA_RX_XC7_PARAMS)'; fi; \
		if [ $$set = ice40 ]; then conns='$(MPA_RX_MEM_CONNS)'; \
		else conns='$(patsubst CONN_COUNT=%,%,$(filter CONN_COUNT=%,$(MPA_RX_XC7_PARAMS)))'; fi; \
		for n in $$conns; do \
			args=$$(for w in $$p; do case $$w in CONN_COUNT=*) ;; *) printf ' -set %s %s' "$${w%%=*}" "$${w#*=}";; esac; done); \
			$(YOSYS) -q -l $@.log -p "read_verilog $(MPA_RX_SRCS); chparam $$args -set CONN_COUNT $$n mpa_rx; \
				hierarchy -top mpa_rx; proc; flatten; tee -q -o $@.all dump m:*; \
				opt_clean; tee -q -o $@.live dump m:*" >/dev/null; \
			for k in all live; do awk -v set=$$set -v n=$$n -v k=$$k '$$1 == "memory" { \
				w = 0; s = 0; for (i = 2; i < NF; i += 2) { if ($$i == "width") w = $$(i+1); if ($$i == "size") s = $$(i+1) } \
				print set, n, k, $$NF, w, s }' $@.$$k >> $@.tmp; done; \
			echo "$$set $$n params $$p (CONN_COUNT $$n)" >> $@.tmp; \
		done; \
	done; rm -f $@.all $@.live; mv $@.tmp $@

# ---------------------------------------------------------------------------
# On-chip memory by width (docs/design.md section 6): buffers at each
# DATA_WIDTH for the default MAX_FRAME (1518) and the jumbo one (9018), and
# the bits per connection, from the memories Yosys infers (no synthesis:
# about half a minute). `make buffers BUFFERS_EXTRA="RQ_DEPTH=32"` sets
# more parameters.
BUFFERS_WIDTHS ?= 64 128 256 512
BUFFERS_FRAMES ?= 1518 9018
BUFFERS_EXTRA ?=
.PHONY: buffers
buffers: scripts/synth/buffers.sh
	@mkdir -p $(SYNTH_DIR)/buffers
	@YOSYS=$(YOSYS) sh scripts/synth/buffers.sh "$(MPA_RX_SRCS)" "$(BUFFERS_WIDTHS)" "$(BUFFERS_FRAMES)" \
		$(SYNTH_DIR)/buffers "$(BUFFERS_EXTRA)" | tee $(SYNTH_DIR)/buffers.txt

# ---------------------------------------------------------------------------
# The receiver's main blocks alone, each in a pin shell generated from its
# port list (scripts/synth/shellgen.sh), through synth_ice40 and
# nextpnr-ice40 on the HX8K: the fmax of each while the whole receiver does
# not fit (docs/synth.md). Parameters as mpa_rx instantiates them with the
# default MPA_RX_ICE40_PARAMS (64 bits, CONN_COUNT 16, FIFO_DEPTH 512).
# About 3 minutes; part of `make synth`, alone with `make synth-blocks`.
MPA_RX_BLOCKS ?= mpa_rx_parse mpa_rx_walk mpa_rx_ddp mpa_rx_place
MPA_RX_BLOCK_PARAMS_mpa_rx_parse ?= DATA_WIDTH=64
MPA_RX_BLOCK_PARAMS_mpa_rx_walk  ?= DATA_WIDTH=64 MAX_FPDUS=220
MPA_RX_BLOCK_PARAMS_mpa_rx_ddp   ?= IDX_BITS=4 STAG_COUNT=64 RQ_DEPTH=4
MPA_RX_BLOCK_PARAMS_mpa_rx_place ?= DATA_WIDTH=64

# $(call mpa_rx_block_rules,BLOCK)
define mpa_rx_block_rules
MPA_RX_BLOCK_OUTS += $(MPA_RX_DIR)/blk_$(1).pnr.txt

$(MPA_RX_DIR)/blk_$(1).params: rtl-force
	@mkdir -p $$(@D)
	@echo '$(MPA_RX_SRCS) | $(MPA_RX_BLOCK_PARAMS_$(1))' | cmp -s - $$@ || \
		echo '$(MPA_RX_SRCS) | $(MPA_RX_BLOCK_PARAMS_$(1))' > $$@

$(MPA_RX_DIR)/blk_$(1).json: $(MPA_RX_SRCS) scripts/synth/shellgen.sh $(MPA_RX_DIR)/blk_$(1).params
	@echo "synth_ice40  $(1)_pshell $(MPA_RX_BLOCK_PARAMS_$(1))"
	@$(YOSYS) -q -p "read_verilog $(MPA_RX_SRCS); chparam $(call mpa_rx_chparam,$(MPA_RX_BLOCK_PARAMS_$(1))) $(1); \
		hierarchy -top $(1); tee -q -o $$@.ports dump $(1)/i:* $(1)/o:*" >/dev/null
	@sh scripts/synth/shellgen.sh $(1) $$@.ports > $(MPA_RX_DIR)/blk_$(1)_pshell.v
	@TIMEFORMAT='yosys_seconds %R %U'; { time $(YOSYS) -q -l $$@.log -p "read_verilog $(MPA_RX_SRCS) \
		$(MPA_RX_DIR)/blk_$(1)_pshell.v; chparam $(call mpa_rx_chparam,$(MPA_RX_BLOCK_PARAMS_$(1))) $(1); \
		synth_ice40 -top $(1)_pshell -json $$@.tmp; tee -q -o $(MPA_RX_DIR)/blk_$(1).stat stat" \
		>/dev/null; } 2>> $(MPA_RX_DIR)/blk_$(1).stat
	@mv $$@.tmp $$@

$(MPA_RX_DIR)/blk_$(1).pnr.txt: $(MPA_RX_DIR)/blk_$(1).json
	@echo "nextpnr-ice40 $(1)_pshell (HX8K)"
	@rm -f $(MPA_RX_DIR)/blk_$(1).asc $(MPA_RX_DIR)/blk_$(1).bin
	@TIMEFORMAT='nextpnr_seconds %R %U'; { time $(NEXTPNR) $(NEXTPNR_FLAGS) --json $$< \
		--asc $(MPA_RX_DIR)/blk_$(1).asc > $$@.tmp 2>&1; } 2> $$@.time || echo "nextpnr_failed" >> $$@.tmp
	@cat $$@.time >> $$@.tmp; rm -f $$@.time
	@if [ -f $(MPA_RX_DIR)/blk_$(1).asc ] && ! grep -q nextpnr_failed $$@.tmp; then \
		icepack $(MPA_RX_DIR)/blk_$(1).asc $(MPA_RX_DIR)/blk_$(1).bin && \
		echo "bitstream $(MPA_RX_DIR)/blk_$(1).bin $$$$(wc -c < $(MPA_RX_DIR)/blk_$(1).bin)" >> $$@.tmp; fi
	@mv $$@.tmp $$@
endef

MPA_RX_BLOCK_OUTS :=
$(foreach b,$(MPA_RX_BLOCKS),$(eval $(call mpa_rx_block_rules,$(b))))

.PHONY: synth-blocks
synth-blocks: $(MPA_RX_BLOCK_OUTS) scripts/synth/mpa_rx_blocks.sh
	@sh scripts/synth/mpa_rx_blocks.sh $(MPA_RX_DIR) "$(MPA_RX_BLOCKS)" | tee $(SYNTH_DIR)/mpa_rx_blocks.txt

$(SYNTH_DIR)/mpa_rx.txt: $(MPA_RX_DIR)/ice40.txt $(MPA_RX_DIR)/pnr.txt $(MPA_RX_DIR)/xc7.txt \
		$(MPA_RX_DIR)/mem.txt $(MPA_RX_BLOCK_OUTS) scripts/synth/mpa_rx_report.sh scripts/synth/mpa_rx_blocks.sh
	@{ sh scripts/synth/mpa_rx_report.sh $(MPA_RX_DIR) '$(MPA_RX_ICE40_PARAMS)' '$(MPA_RX_XC7_PARAMS)'; echo; \
		sh scripts/synth/mpa_rx_blocks.sh $(MPA_RX_DIR) "$(MPA_RX_BLOCKS)"; } > $@.tmp
	@mv $@.tmp $@

# ---------------------------------------------------------------------------
# Co-simulation speed: the batched cgo harness against the same models stepped
# by a plain C++ loop, in one run (docs/cosim.md).
bench-cosim: $(SIM_LIBS)
	$(GO) run ./cosim/internal/cosimbench

# ---------------------------------------------------------------------------
# LUT levels and line rate (docs/synth.md, "LUT levels"): every block of the
# receiver, and the receiver flattened, at each width through
# `synth_xilinx -flatten` (write_json), the longest register-to-register or
# port path in LUT levels by cmd/lutdepth, the HX8K post-route fmax of the
# 64-bit blocks from the rules above, and the table by cmd/synthreport with
# issue 12's figures beside it. `make synth-fast`: the blocks at 64 bits
# (about 4 minutes of CPU); `make synth-levels` (the first table of `make
# synth`) adds 128, 256 and 512 bits and the whole receiver (about 20 more).
# A Yosys run that exceeds DEPTH_MEM_KB of memory, DEPTH_CPU seconds of CPU
# or DEPTH_TIMEOUT seconds of wall time is a result (the table says so),
# not a build error. Yosys runs at nice 10 (DEPTH_NICE): do not nice make
# on top of it, or it starves on a shared machine.
DEPTH_DIR     := $(SYNTH_DIR)/depth
DEPTH_BLOCKS  ?= mpa_rx_parse mpa_rx_walk mpa_rx_ddp mpa_rx_place crc32c mpa_rx
FAST_BLOCKS   ?= mpa_rx_parse mpa_rx_walk mpa_rx_ddp mpa_rx_place crc32c
DEPTH_WIDTHS  ?= 64 128 256 512
DEPTH_MEM_KB  ?= 12000000
DEPTH_CPU     ?= 5400
DEPTH_TIMEOUT ?= 14400
DEPTH_NICE    ?= nice -n 10
LUTDEPTH      := $(RTL_BUILD)/lutdepth
SYNTHREPORT   := $(RTL_BUILD)/synthreport
# Parameters as mpa_rx gives each block with FIFO_DEPTH two 1518-octet
# frames deep (32768 / DATA_WIDTH beats, MAX_FPDUS 220 at every width) and
# CONN_COUNT 16; $(call DEPTH_PARAMS_<block>,WIDTH).
DEPTH_PARAMS_mpa_rx_parse = DATA_WIDTH=$(1)
DEPTH_PARAMS_mpa_rx_walk  = DATA_WIDTH=$(1) MAX_FPDUS=220
# (mpa_rx_ddp has no DATA_WIDTH; its EVT_LANES is what mpa_rx gives it)
DEPTH_PARAMS_mpa_rx_ddp   = IDX_BITS=4 STAG_COUNT=64 RQ_DEPTH=4 EVT_LANES=$(if $(filter 256 512,$(1)),2,1)
DEPTH_PARAMS_mpa_rx_place = DATA_WIDTH=$(1)
DEPTH_PARAMS_crc32c       = DATA_WIDTH=$(1)
DEPTH_PARAMS_mpa_rx       = DATA_WIDTH=$(1) CONN_COUNT=16 FIFO_DEPTH=$(shell echo $$((32768 / $(1))))
# mpa_rx_ddp has no DATA_WIDTH: one row per EVT_LANES (1 at 64 and 128
# bits, 2 at 256 and 512)
DEPTH_WIDTHS_mpa_rx_ddp   = 64 256
depth_widths = $(if $(DEPTH_WIDTHS_$(1)),$(filter $(DEPTH_WIDTHS_$(1)),$(2)),$(2))
# the HX8K result of each 64-bit block (nextpnr log)
DEPTH_PNR_mpa_rx_parse = $(MPA_RX_DIR)/blk_mpa_rx_parse.pnr.txt
DEPTH_PNR_mpa_rx_walk  = $(MPA_RX_DIR)/blk_mpa_rx_walk.pnr.txt
DEPTH_PNR_mpa_rx_ddp   = $(MPA_RX_DIR)/blk_mpa_rx_ddp.pnr.txt
DEPTH_PNR_mpa_rx_place = $(MPA_RX_DIR)/blk_mpa_rx_place.pnr.txt
DEPTH_PNR_crc32c       = $(SYNTH_DIR)/crc32c_w64.pnr.txt
DEPTH_PNR_mpa_rx       = $(MPA_RX_DIR)/pnr.txt

$(LUTDEPTH): $(wildcard cmd/internal/lutdepth/*.go cmd/lutdepth/*.go)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./cmd/lutdepth

$(SYNTHREPORT): $(wildcard cmd/synthreport/*.go)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./cmd/synthreport

# $(call depth_rules,BLOCK,WIDTH)
define depth_rules
DEPTH_OUTS_$(2) += $(DEPTH_DIR)/$(1)_w$(2).result

$(DEPTH_DIR)/$(1)_w$(2).params: rtl-force
	@mkdir -p $$(@D)
	@echo '$(MPA_RX_SRCS) | $(call DEPTH_PARAMS_$(1),$(2))' | cmp -s - $$@ || \
		echo '$(MPA_RX_SRCS) | $(call DEPTH_PARAMS_$(1),$(2))' > $$@

# the netlist stays in $(DEPTH_DIR)/$(1)_w$(2).json for more lutdepth runs;
# .synth marks the Yosys run done (netlist or .fail), .result the analysis
$(DEPTH_DIR)/$(1)_w$(2).synth: $(MPA_RX_SRCS) $(DEPTH_DIR)/$(1)_w$(2).params
	@echo "synth_xilinx -flatten $(1) $(call DEPTH_PARAMS_$(1),$(2))"
	@b=$(DEPTH_DIR)/$(1)_w$(2); rm -f $$$$b.fail $$$$b.json; \
	 t0=$$$$(date +%s.%N); \
	 ( ulimit -v $(DEPTH_MEM_KB); ulimit -t $(DEPTH_CPU); exec timeout $(DEPTH_TIMEOUT) $(DEPTH_NICE) $(YOSYS) -q -l $$$$b.yosys.log \
		-p "read_verilog $(MPA_RX_SRCS); chparam $(call mpa_rx_chparam,$(call DEPTH_PARAMS_$(1),$(2))) $(1); \
		synth_xilinx -flatten -top $(1); write_json $$$$b.json.tmp" ) >/dev/null 2>$$$$b.yosys.err; rc=$$$$?; \
	 echo "$$$$t0 $$$$(date +%s.%N)" | awk '{ printf "%.1f\n", $$$$2 - $$$$1 }' > $$$$b.wall; \
	 if [ $$$$rc -eq 0 ]; then mv $$$$b.json.tmp $$$$b.json; \
	 else rm -f $$$$b.json.tmp; \
		if [ $$$$rc -eq 124 ]; then echo "Yosys timed out after $(DEPTH_TIMEOUT) s (wall)" > $$$$b.fail; \
		elif [ $$$$rc -eq 152 ]; then echo "Yosys stopped at the CPU limit, $(DEPTH_CPU) s" > $$$$b.fail; \
		elif [ $$$$rc -eq 137 ]; then echo "Yosys killed (CPU hard limit $(DEPTH_CPU) s, or out of memory)" > $$$$b.fail; \
		elif grep -qi 'memory\|bad_alloc' $$$$b.yosys.err $$$$b.yosys.log 2>/dev/null; then \
			echo "Yosys ran out of memory (limit $(DEPTH_MEM_KB) KB)" > $$$$b.fail; \
		else echo "Yosys failed (exit $$$$rc): $$$$(tail -1 $$$$b.yosys.err)" > $$$$b.fail; fi; \
		echo "  $(1) at $(2) bits: $$$$(cat $$$$b.fail)"; fi
	@touch $$@

$(DEPTH_DIR)/$(1)_w$(2).result: $(DEPTH_DIR)/$(1)_w$(2).synth $(LUTDEPTH)
	@b=$(DEPTH_DIR)/$(1)_w$(2); rm -f $$$$b.depth.json $$$$b.depth.txt; \
	 if [ -f $$$$b.json ]; then $(LUTDEPTH) -worst 12 -json $$$$b.depth.json $$$$b.json > $$$$b.depth.txt; fi
	@touch $$@
endef

$(foreach b,$(DEPTH_BLOCKS),$(foreach w,$(call depth_widths,$(b),$(DEPTH_WIDTHS)),$(eval $(call depth_rules,$(b),$(w)))))

# nextpnr logs of the 64-bit blocks next to their depth results
define depth_pnr_rule
$(DEPTH_DIR)/$(1)_w64.pnr.txt: $(DEPTH_PNR_$(1))
	@mkdir -p $$(@D)
	@cp $$< $$@
endef
$(foreach b,$(DEPTH_BLOCKS),$(eval $(call depth_pnr_rule,$(b))))

FAST_OUTS := $(foreach b,$(FAST_BLOCKS),$(DEPTH_DIR)/$(b)_w64.result $(DEPTH_DIR)/$(b)_w64.pnr.txt)
# the longest runs first, so that make -j2 starts them early
DEPTH_ALL := $(foreach w,$(DEPTH_WIDTHS),$(DEPTH_OUTS_$(w)))
DEPTH_LONG := $(filter %/mpa_rx_w512.result,$(DEPTH_ALL))
FULL_OUTS := $(DEPTH_LONG) $(filter-out $(DEPTH_LONG),$(DEPTH_ALL)) \
	$(foreach b,$(DEPTH_BLOCKS),$(DEPTH_DIR)/$(b)_w64.pnr.txt)

$(SYNTH_DIR)/levels-fast.txt: $(FAST_OUTS) $(SYNTHREPORT)
	@$(SYNTHREPORT) -dir $(DEPTH_DIR) -blocks "$(FAST_BLOCKS)" -widths 64 > $@.tmp && mv $@.tmp $@

$(SYNTH_DIR)/levels.txt: $(FULL_OUTS) $(SYNTHREPORT)
	@$(SYNTHREPORT) -dir $(DEPTH_DIR) -blocks "$(DEPTH_BLOCKS)" -widths "$(DEPTH_WIDTHS)" > $@.tmp && mv $@.tmp $@

.PHONY: synth-fast synth-levels
synth-fast: $(SYNTH_DIR)/levels-fast.txt
	@cat $<

synth-levels: $(SYNTH_DIR)/levels.txt
	@cat $<

# lutdepth against Yosys ltp on every netlist synth-fast / synth-levels left
.PHONY: synth-ltpcheck
synth-ltpcheck: $(LUTDEPTH)
	@sh scripts/synth/ltpcheck.sh $(DEPTH_DIR) $(LUTDEPTH) $(YOSYS)
