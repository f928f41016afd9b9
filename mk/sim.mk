# Co-simulation models (docs/cosim.md): Verilator builds of RTL top modules,
# linked into one library for the cgo harness (package cosim).
#
# Each rule has real file targets, so `make` rebuilds only what changed: one
# variant's Verilator model when its sources or parameters change, the shim
# when the model's header changes, the library archive when any member changes.

# A variant is a top module with one parameter set; all
# variants are linked into one library with their own class prefix
# (V<variant>), so several widths of one top coexist in one Go test binary.
# To add one: $(eval $(call sim_variant,NAME,TOP,SOURCES,VERILATOR_ARGS)).

# Verilator's root is asked of verilator by the shell when a recipe runs,
# never by make when it reads this file: on a fresh machine `make deps`
# installs verilator in the same make run, after the makefiles were read
# (`make check-make` checks that no recipe line comes out with an empty
# include path when verilator is absent at read time).
VL_ROOT = $$($(VERILATOR) --getenv VERILATOR_ROOT)
VL_FLAGS := --cc -O3 --x-assign fast --x-initial fast -Wno-fatal --no-timing

# Waveforms (FST, cosim.TraceDir / MPARX_TRACE) need a model built with
# Verilator's trace code, which is more than half of a model's C++ and of
# its compile time. It is built only into the variants named in SIM_TRACE:
# by default those whose waveforms the tests check (cosim's trace tests on
# crc32c, the lockstep's mismatch report on mpa_rx_w64). To debug another
# model with waveforms: `make sim-libs SIM_TRACE=all` (or a list of
# variants); a variant whose SIM_TRACE membership changes is rebuilt.
SIM_TRACE ?= crc32c_w64 crc32c_w256 mpa_rx_w64
VL_TRACE_FLAGS := --trace-fst --trace-max-array 4096
# $(call sim_trace,NAME): Verilator's trace flags if NAME is built with waveforms.
sim_trace = $(if $(filter all $(1),$(SIM_TRACE)),$(VL_TRACE_FLAGS))
SIM_CXXFLAGS = -O2 -fPIC -std=gnu++17 -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd \
	-Isim -Icosim -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0 \
	-faligned-new -fcf-protection=none -Wno-bool-operation -Wno-sign-compare \
	-Wno-uninitialized -Wno-unused-but-set-variable -Wno-unused-parameter \
	-Wno-unused-variable -Wno-shadow

SIM_VARIANTS :=

# The C++ optimisation of the Verilated models: OPT_FAST for the code run
# every cycle, OPT_SLOW for the code run once (construction, initial
# values), OPT_GLOBAL for Verilator's support code (see Verilator's
# verilated.mk). A model built with other values is not rebuilt by a change
# of these: `make clean-rtl` first. Measured on mpa_rx_axi_top_w64 (nice'd,
# loaded machine): -O1/-O0 takes 203 s of CPU to build against 239 s for
# these values, and its model runs roughly a quarter slower; the tests run
# the models for far longer than they take to build.
SIM_OPT_FAST ?= -O3
SIM_OPT_SLOW ?= -O1
SIM_OPT_GLOBAL ?= -O2

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
	@echo '$(2) $(3) $(4) $$(call sim_trace,$(1))' | cmp -s - $$@ || echo '$(2) $(3) $(4) $$(call sim_trace,$(1))' > $$@

$(RTL_BUILD)/$(1)/verilated.stamp: $(3) $(RTL_INCS) $(RTL_BUILD)/$(1)/args.txt $(RTL_BUILD)/verilator-version.txt
	@echo "$$(call sim_progress,$(1)) verilator $(1): $(2) $(4)"
	@flock $(RTL_BUILD)/$(1)/.lock $$(VERILATOR) $$(VL_FLAGS) $$(call sim_trace,$(1)) --prefix V$(1) --top-module $(2) $(4) -y rtl \
		--Mdir $(RTL_BUILD)/$(1) $(3)
	@touch $$@

$(RTL_BUILD)/$(1)/V$(1)__ALL.a: $(RTL_BUILD)/$(1)/verilated.stamp
	@echo "$$(call sim_progress,$(1)) c++ $(1) (the Verilator model)"
	@SECONDS=0; flock $(RTL_BUILD)/$(1)/.lock $$(MAKE) -s --no-print-directory -C $(RTL_BUILD)/$(1) -f V$(1).mk -f $(CURDIR)/sim/trace-opt.mk V$(1)__ALL.a \
		CXXFLAGS=-fPIC OPT_FAST="$(SIM_OPT_FAST)" OPT_SLOW="$(SIM_OPT_SLOW)" OPT_GLOBAL="$(SIM_OPT_GLOBAL)" >$(RTL_BUILD)/$(1)/build.log 2>&1 \
		|| { tail -40 $(RTL_BUILD)/$(1)/build.log; exit 1; }; \
		echo "$$(call sim_progress,$(1)) built $(1) in $$$${SECONDS}s"

$(RTL_BUILD)/$(1)/shim_$(1).cpp: $(RTL_BUILD)/$(1)/verilated.stamp $(RTL_BUILD)/shimgen
	@$(RTL_BUILD)/shimgen -variant $(1) -header $(RTL_BUILD)/$(1)/V$(1).h -o $$@

$(RTL_BUILD)/$(1)/shim_$(1).o: $(RTL_BUILD)/$(1)/shim_$(1).cpp sim/cosim_model.h sim/cosim_axi.h cosim/mparxsim.h
	@$$(SIM_CXX) $$(SIM_CXXFLAGS) -O3 -I$(RTL_BUILD)/$(1) -c $$< -o $$@.$$$$$$$$.tmp && mv $$@.$$$$$$$$.tmp $$@
endef

SIM_WIDTHS := 64 128 256 512
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,crc32c_w$(w),crc32c,rtl/crc32c.v,-GDATA_WIDTH=$(w))))
$(foreach w,64 128 512,$(eval $(call sim_variant,mpa_rx_parse_w$(w),mpa_rx_parse,rtl/mpa_rx_parse.v,-GDATA_WIDTH=$(w))))
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,mpa_rx_walk_w$(w),mpa_rx_walk,$(WALK_SRCS),-GDATA_WIDTH=$(w))))
# The walker's parts alone, for their benches (cosim/walkword, ...): the
# widths where their geometry differs (at 256 bits three FPDU and record
# slots, at 512 the chains in two stages).
WALK_PART_WIDTHS_word  := 64 512
WALK_PART_WIDTHS_chain := 64 256 512
WALK_PART_WIDTHS_step  := 64 512
WALK_PART_WIDTHS_fpdu  := 64 256 512
WALK_PART_WIDTHS_rec   := 64 256 512
WALK_PART_WIDTHS_store := 64 256 512
WALK_PART_WIDTHS_sum   := 64 256 512
$(foreach p,word chain step fpdu rec store sum,$(foreach w,$(WALK_PART_WIDTHS_$(p)),$(eval $(call sim_variant,mpa_rx_walk_$(p)_w$(w),mpa_rx_walk_$(p),rtl/mpa_rx_walk_$(p).v rtl/mpa_rx_delay.v $(if $(filter store,$(p)),rtl/mpa_rx_fifo.v),-GDATA_WIDTH=$(w)))))
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,mpa_rx_w$(w),mpa_rx,$(MPA_RX_SRCS),-GDATA_WIDTH=$(w) -GMAX_FRAME=9018 -GCONN_COUNT=1024 -GSTAG_COUNT=256 -GRQ_DEPTH=32 --assert)))
# The AXI4 write master (cosim/axiwr): at 64 bits with fewer IDs than
# bursts (per-ID response counters), at the other widths with an ID per
# burst; assertions on.
$(eval $(call sim_variant,mpa_rx_axi_wr_w64,mpa_rx_axi_wr,rtl/mpa_rx_axi_wr.v,-GDATA_WIDTH=64 -GID_WIDTH=2 -GMAX_BURSTS=16 --assert))
$(foreach w,128 256 512,$(eval $(call sim_variant,mpa_rx_axi_wr_w$(w),mpa_rx_axi_wr,rtl/mpa_rx_axi_wr.v,-GDATA_WIDTH=$(w) -GID_WIDTH=6 -GMAX_BURSTS=32 --assert)))
# The AXI4-Lite register block (cosim/axilregs) with the parameters of the
# receiver variants at 64 bits (one event lane, 48-bit counters) and at
# 512 bits (two event lanes, 64-bit counters).
$(eval $(call sim_variant,mpa_rx_axil_regs_w64,mpa_rx_axil_regs,rtl/mpa_rx_axil_regs.v,-Irtl -GDATA_WIDTH=64 -GCONN_COUNT=1024 -GSTAG_COUNT=256 -GRQ_DEPTH=32 -GMAX_FRAME=9018 -GFIFO_DEPTH=4096 -GMAX_INFLIGHT=14 -GEVT_LANES=1 -GCOUNTER_WIDTH=48 --assert))
$(eval $(call sim_variant,mpa_rx_axil_regs_w512,mpa_rx_axil_regs,rtl/mpa_rx_axil_regs.v,-Irtl -GDATA_WIDTH=512 -GCONN_COUNT=1024 -GSTAG_COUNT=256 -GRQ_DEPTH=32 -GMAX_FRAME=9018 -GFIFO_DEPTH=512 -GMAX_INFLIGHT=24 -GEVT_LANES=2 -GAXI_ID_WIDTH=6 -GAXI_MAX_BURSTS=32 --assert))
# The receiver as an IP core (mpa_rx_axi_top: AXI4 master, completion gate,
# AXI4-Lite block) with the receiver variants' parameters and an ID per
# burst outstanding: 16 bursts at 64 bits, 32 at 128, 64 at 256 and 512
# bits (a burst per frame of two beats, B 64 cycles after its last beat);
# cosim/rx runs it end to end.
axi_top_bursts = $(if $(filter 64,$(1)),16,$(if $(filter 128,$(1)),32,64))
axi_top_ids = $(if $(filter 64,$(1)),4,$(if $(filter 128,$(1)),5,6))
$(foreach w,$(SIM_WIDTHS),$(eval $(call sim_variant,mpa_rx_axi_top_w$(w),mpa_rx_axi_top,$(AXI_TOP_SRCS),-Irtl -GDATA_WIDTH=$(w) -GMAX_FRAME=9018 -GCONN_COUNT=1024 -GSTAG_COUNT=256 -GRQ_DEPTH=32 -GAXI_ID_WIDTH=$(call axi_top_ids,$(w)) -GAXI_MAX_BURSTS=$(call axi_top_bursts,$(w)) --assert)))
# The receiver's parts alone, each for its own bench (cosim/<part>).
$(eval $(call sim_variant,mpa_rx_fifo_d8,mpa_rx_fifo,rtl/mpa_rx_fifo.v,-GWIDTH=72 -GDEPTH=8 --assert))
$(foreach d,0 3,$(eval $(call sim_variant,mpa_rx_delay_d$(d),mpa_rx_delay,rtl/mpa_rx_delay.v,-GWIDTH=40 -GDEPTH=$(d))))
$(eval $(call sim_variant,mpa_rx_ingress_d8,mpa_rx_ingress,rtl/mpa_rx_ingress.v,-GFIFO_DEPTH=8 -GMAX_INFLIGHT=5 --assert))
$(eval $(call sim_variant,mpa_rx_ctx_c16,mpa_rx_ctx,rtl/mpa_rx_ctx.v,-GCONN_COUNT=16 --assert))
$(eval $(call sim_variant,mpa_rx_verdict_i4,mpa_rx_verdict,rtl/mpa_rx_verdict.v rtl/mpa_rx_fifo.v rtl/mpa_rx_delay.v,-GIDX_BITS=4 -GDEPTH=16 --assert))
$(foreach l,1 2,$(eval $(call sim_variant,mpa_rx_ddp_l$(l),mpa_rx_ddp,rtl/mpa_rx_ddp.v,-GIDX_BITS=4 -GSTAG_COUNT=64 -GRQ_DEPTH=4 -GEVT_LANES=$(l) --assert)))
$(foreach w,64 512,$(eval $(call sim_variant,mpa_rx_place_w$(w),mpa_rx_place,rtl/mpa_rx_place.v,-GDATA_WIDTH=$(w) --assert)))
$(foreach w,64 512,$(eval $(call sim_variant,mpa_rx_feed_w$(w),mpa_rx_feed,rtl/mpa_rx_feed.v rtl/mpa_rx_fifo.v rtl/mpa_rx_delay.v,-GDATA_WIDTH=$(w) --assert)))
$(foreach w,64 512,$(eval $(call sim_variant,mpa_rx_frame_w$(w),mpa_rx_frame,rtl/mpa_rx_frame.v rtl/mpa_rx_fifo.v rtl/mpa_rx_delay.v,-GDATA_WIDTH=$(w) -GIDX_BITS=4 -GDEPTH=16 --assert)))

# The variants linked into the library: all of them unless the command line
# names fewer (`make run` links only the receiver it runs). The library and
# its registry follow the list; the models already built are kept.
SIM_LIB_VARIANTS ?= $(SIM_VARIANTS)
# The largest models (the receiver and the IP core) come first, so that
# with -j the small ones fill the cores at the end instead of one large
# model compiling alone.
SIM_BIG_VARIANTS = $(filter $(foreach w,$(SIM_WIDTHS),mpa_rx_axi_top_w$(w) mpa_rx_w$(w)),$(SIM_LIB_VARIANTS))
SIM_VARIANT_LIBS = $(foreach v,$(SIM_BIG_VARIANTS) $(filter-out $(SIM_BIG_VARIANTS),$(SIM_LIB_VARIANTS)),$(RTL_BUILD)/$(v)/V$(v)__ALL.a)
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
SIM_RUNTIME_OBJS := $(RTL_BUILD)/runtime/cosim_runtime.o $(RTL_BUILD)/runtime/cosim_axi.o $(RTL_BUILD)/runtime/registry.o

.PHONY: sim-libs clean-rtl bench-cosim

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

$(RTL_BUILD)/runtime/cosim_runtime.o: sim/cosim_runtime.cpp sim/cosim_model.h sim/cosim_axi.h cosim/mparxsim.h
	@mkdir -p $(@D)
	@$(SIM_CXX) $(SIM_CXXFLAGS) -c $< -o $@.$$$$.tmp && mv $@.$$$$.tmp $@

$(RTL_BUILD)/runtime/cosim_axi.o: sim/cosim_axi.cpp sim/cosim_axi.h cosim/mparxsim.h
	@mkdir -p $(@D)
	@$(SIM_CXX) $(SIM_CXXFLAGS) -O3 -c $< -o $@.$$$$.tmp && mv $@.$$$$.tmp $@

$(RTL_BUILD)/variants.txt: rtl-force
	@mkdir -p $(@D)
	@echo '$(strip $(SIM_LIB_VARIANTS))' | cmp -s - $@ || echo '$(strip $(SIM_LIB_VARIANTS))' > $@

$(RTL_BUILD)/runtime/registry.cpp: $(RTL_BUILD)/variants.txt $(RTL_BUILD)/shimgen
	@mkdir -p $(@D)
	@$(RTL_BUILD)/shimgen -registry -o $@ $(SIM_LIB_VARIANTS)

$(RTL_BUILD)/runtime/registry.o: $(RTL_BUILD)/runtime/registry.cpp sim/cosim_model.h sim/cosim_axi.h cosim/mparxsim.h
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
	 printf '%s\n' '// Code generated by mk/sim.mk. DO NOT EDIT.' '' 'package cosim' '' \
		'// The SHA-256 of sim/build/libmparxsim.a, linked into every binary, so' \
		'// that a new library makes new test binaries for the Go test cache.' \
		"func init() { libStamp = \"$$h\" }" > $$t; \
	 if cmp -s $$t $@; then rm $$t; touch $@; else mv $$t $@; fi

clean-rtl:
	rm -rf $(RTL_BUILD) $(SIM_STAMP)

# ---------------------------------------------------------------------------
# Co-simulation speed: the batched cgo harness against the same models stepped
# by a plain C++ loop, in one run (docs/cosim.md).
bench-cosim: $(SIM_LIBS)
	$(GO) run ./cosim/internal/cosimbench

