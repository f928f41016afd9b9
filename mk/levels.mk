# LUT levels and line rate (docs/synth.md, "LUT levels"): every block of the
# receiver, and the receiver flattened, at each width through
# `synth_xilinx -flatten` (write_json), the longest register-to-register or
# port path in LUT levels by cmd/lutdepth, the HX8K post-route fmax of the
# 64-bit blocks from the rules of mk/synth.mk, and the table by
# cmd/synthreport with the timing anchors' figures under it. `make
# synth-fast`: the blocks at 64 bits; `make synth-levels` (the first table
# of `make synth`) adds 128, 256 and 512 bits and the whole receiver.
# A Yosys run that exceeds DEPTH_MEM_KB of memory, DEPTH_CPU seconds of CPU
# or DEPTH_TIMEOUT seconds of wall time is a result (the table says so),
# not a build error. Yosys runs at nice 10 (DEPTH_NICE): do not nice make
# on top of it, or it starves on a shared machine.
DEPTH_DIR     := $(SYNTH_DIR)/depth
# The walker's parts (mpa_rx_walk wires them) have rows of their own.
WALK_PARTS    := mpa_rx_walk_word mpa_rx_walk_chain mpa_rx_walk_step mpa_rx_walk_fpdu mpa_rx_walk_rec \
	mpa_rx_walk_store mpa_rx_walk_sum
DEPTH_BLOCKS  ?= mpa_rx_parse mpa_rx_walk $(WALK_PARTS) mpa_rx_ddp mpa_rx_place crc32c mpa_rx_ingress mpa_rx_ctx \
	mpa_rx_feed mpa_rx_frame mpa_rx_verdict mpa_rx mpa_rx_axi_wr mpa_rx_axil_regs mpa_rx_axi_gate mpa_rx_axi_top
FAST_BLOCKS   ?= mpa_rx_parse mpa_rx_walk $(WALK_PARTS) mpa_rx_ddp mpa_rx_place crc32c mpa_rx_ingress mpa_rx_ctx \
	mpa_rx_feed mpa_rx_frame mpa_rx_verdict mpa_rx_axi_wr mpa_rx_axil_regs mpa_rx_axi_gate
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
$(foreach p,$(WALK_PARTS),$(eval DEPTH_PARAMS_$(p) = DATA_WIDTH=$$(1)))
DEPTH_PARAMS_mpa_rx_walk_store = DATA_WIDTH=$(1) MAX_FPDUS=220
# (mpa_rx_ddp has no DATA_WIDTH; its EVT_LANES is what mpa_rx gives it)
DEPTH_PARAMS_mpa_rx_ddp   = IDX_BITS=4 STAG_COUNT=64 RQ_DEPTH=4 EVT_LANES=$(if $(filter 256 512,$(1)),2,1)
DEPTH_PARAMS_mpa_rx_place = DATA_WIDTH=$(1)
DEPTH_PARAMS_crc32c       = DATA_WIDTH=$(1)
# the per-frame queues are 16 deep, 32 at 512 bits (MAX_INFLIGHT 14 / 24)
depth_iq = $(if $(filter 512,$(1)),32,16)
DEPTH_PARAMS_mpa_rx_ingress = FIFO_DEPTH=$(shell echo $$((32768 / $(1)))) MAX_INFLIGHT=$(if $(filter 512,$(1)),24,14)
DEPTH_PARAMS_mpa_rx_ctx     = CONN_COUNT=16
DEPTH_PARAMS_mpa_rx_feed    = DATA_WIDTH=$(1)
DEPTH_PARAMS_mpa_rx_frame   = DATA_WIDTH=$(1) IDX_BITS=4 DEPTH=$(call depth_iq,$(1))
DEPTH_PARAMS_mpa_rx_verdict = IDX_BITS=4 DEPTH=$(call depth_iq,$(1))
DEPTH_PARAMS_mpa_rx       = DATA_WIDTH=$(1) CONN_COUNT=16 FIFO_DEPTH=$(shell echo $$((32768 / $(1))))
# The AXI blocks with the integration top's defaults (16 bursts with an ID
# each; the gate as deep as 1518-octet frames need) and the top like mpa_rx.
DEPTH_PARAMS_mpa_rx_axi_wr    = DATA_WIDTH=$(1) ID_WIDTH=4 MAX_BURSTS=16
DEPTH_PARAMS_mpa_rx_axil_regs = DATA_WIDTH=$(1) EVT_LANES=$(if $(filter 256 512,$(1)),2,1)
DEPTH_PARAMS_mpa_rx_axi_gate  = EVT_LANES=$(if $(filter 256 512,$(1)),2,1) DEPTH=256
DEPTH_PARAMS_mpa_rx_axi_top   = DATA_WIDTH=$(1) CONN_COUNT=16 FIFO_DEPTH=$(shell echo $$((32768 / $(1))))
DEPTH_WIDTHS_mpa_rx_axil_regs = 64 256
DEPTH_WIDTHS_mpa_rx_axi_gate  = 64 256
# mpa_rx_ddp has no DATA_WIDTH: one row per EVT_LANES (1 at 64 and 128
# bits, 2 at 256 and 512)
DEPTH_WIDTHS_mpa_rx_ddp   = 64 256
# the context table has no width parameter; the ingress and the verdict
# only their queue depths (64 for 16, 512 for 32)
DEPTH_WIDTHS_mpa_rx_ctx     = 64
DEPTH_WIDTHS_mpa_rx_ingress = 64 512
DEPTH_WIDTHS_mpa_rx_verdict = 64 512
depth_widths = $(if $(DEPTH_WIDTHS_$(1)),$(filter $(DEPTH_WIDTHS_$(1)),$(2)),$(2))
# the HX8K result of each 64-bit block (nextpnr log; the walker's parts have
# none: the walker's is the one)
DEPTH_PNR_mpa_rx_parse = $(MPA_RX_DIR)/blk_mpa_rx_parse.pnr.txt
DEPTH_PNR_mpa_rx_walk  = $(MPA_RX_DIR)/blk_mpa_rx_walk.pnr.txt
DEPTH_PNR_mpa_rx_ddp   = $(MPA_RX_DIR)/blk_mpa_rx_ddp.pnr.txt
DEPTH_PNR_mpa_rx_place = $(MPA_RX_DIR)/blk_mpa_rx_place.pnr.txt
DEPTH_PNR_crc32c       = $(SYNTH_DIR)/crc32c_w64.pnr.txt
DEPTH_PNR_mpa_rx_ingress = $(MPA_RX_DIR)/blk_mpa_rx_ingress.pnr.txt
DEPTH_PNR_mpa_rx_ctx     = $(MPA_RX_DIR)/blk_mpa_rx_ctx.pnr.txt
DEPTH_PNR_mpa_rx_feed    = $(MPA_RX_DIR)/blk_mpa_rx_feed.pnr.txt
DEPTH_PNR_mpa_rx_frame   = $(MPA_RX_DIR)/blk_mpa_rx_frame.pnr.txt
DEPTH_PNR_mpa_rx_verdict = $(MPA_RX_DIR)/blk_mpa_rx_verdict.pnr.txt
DEPTH_PNR_mpa_rx       = $(MPA_RX_DIR)/pnr.txt
DEPTH_PNR_mpa_rx_axi_wr    = $(MPA_RX_DIR)/blk_mpa_rx_axi_wr.pnr.txt
DEPTH_PNR_mpa_rx_axil_regs = $(MPA_RX_DIR)/blk_mpa_rx_axil_regs.pnr.txt
DEPTH_PNR_mpa_rx_axi_gate  = $(MPA_RX_DIR)/blk_mpa_rx_axi_gate.pnr.txt

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
	@echo '$(call block_srcs,$(1)) | $(call DEPTH_PARAMS_$(1),$(2))' | cmp -s - $$@ || \
		echo '$(call block_srcs,$(1)) | $(call DEPTH_PARAMS_$(1),$(2))' > $$@

# the netlist stays in $(DEPTH_DIR)/$(1)_w$(2).json for more lutdepth runs;
# .synth marks the Yosys run done (netlist or .fail), .result the analysis
$(DEPTH_DIR)/$(1)_w$(2).synth: $(call block_srcs,$(1)) $(RTL_INCS) $(DEPTH_DIR)/$(1)_w$(2).params
	@echo "synth_xilinx -flatten $(1) $(call DEPTH_PARAMS_$(1),$(2))"
	@b=$(DEPTH_DIR)/$(1)_w$(2); rm -f $$$$b.fail $$$$b.json; \
	 t0=$$$$(date +%s.%N); \
	 ( ulimit -v $(DEPTH_MEM_KB); ulimit -t $(DEPTH_CPU); exec timeout $(DEPTH_TIMEOUT) $(DEPTH_NICE) $(YOSYS) -q -l $$$$b.yosys.log \
		-p "$(YOSYS_READ) $(call block_srcs,$(1)); chparam $(call mpa_rx_chparam,$(call DEPTH_PARAMS_$(1),$(2))) $(1); \
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

# nextpnr logs of the 64-bit blocks next to their depth results (the
# integration top has none: it does not fit the HX8K)
define depth_pnr_rule
$(DEPTH_DIR)/$(1)_w64.pnr.txt: $(DEPTH_PNR_$(1))
	@mkdir -p $$(@D)
	@cp $$< $$@
endef
PNR_BLOCKS = $(foreach b,$(1),$(if $(DEPTH_PNR_$(b)),$(b)))
$(foreach b,$(call PNR_BLOCKS,$(DEPTH_BLOCKS)),$(eval $(call depth_pnr_rule,$(b))))

FAST_OUTS := $(foreach b,$(FAST_BLOCKS),$(DEPTH_DIR)/$(b)_w64.result) \
	$(foreach b,$(call PNR_BLOCKS,$(FAST_BLOCKS)),$(DEPTH_DIR)/$(b)_w64.pnr.txt)
# the longest runs first, so that make -j2 starts them early
DEPTH_ALL := $(foreach w,$(DEPTH_WIDTHS),$(DEPTH_OUTS_$(w)))
DEPTH_LONG := $(filter %/mpa_rx_w512.result,$(DEPTH_ALL))
FULL_OUTS := $(DEPTH_LONG) $(filter-out $(DEPTH_LONG),$(DEPTH_ALL)) \
	$(foreach b,$(call PNR_BLOCKS,$(DEPTH_BLOCKS)),$(DEPTH_DIR)/$(b)_w64.pnr.txt)

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
