// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
//
// cosim_axi.cpp: the AXI4 write slave of cosim_axi.h. Its two halves follow
// Drive and Observe of cosim/internal/axi's Memory step by step, random
// draws included, so that both make the same choices in the same cycles.
#include "cosim_axi.h"

#include <algorithm>
#include <cstring>

namespace mparx {

AxiSlave::AxiSlave(const mparx_axi_slave_config &cfg, const int *offsets)
    : cfg_(cfg), rng_(cfg.seed, 0x6178692d6d656dull) {
    std::memcpy(off_, offsets, sizeof off_);
}

void AxiSlave::drive(uint64_t *in) {
    bool awready = !chance(cfg_.aw_stall) &&
                   (cfg_.max_bursts == 0 || open_ < static_cast<uint64_t>(cfg_.max_bursts));
    bool wready;
    if (cfg_.wait_aw)
        wready = !bursts_.empty() && early_ == 0;
    else
        wready = early_ < 4096;
    if (wready && chance(cfg_.w_stall)) wready = false;
    if (!present_ && !chance(cfg_.b_stall)) present_ = pick(&pres_);
    awready_ = awready;
    wready_ = wready;
    in[off_[kAwready]] = awready;
    in[off_[kWready]] = wready;
    in[off_[kBvalid]] = present_;
    in[off_[kBid]] = present_ ? pres_.id : 0;
    in[off_[kBresp]] = present_ ? pres_.resp : 0;
}

// pick chooses the response to present: the oldest burst's once it is
// ready, or with reorder the head of a random ID's queue among those ready.
bool AxiSlave::pick(Burst *b) {
    heads_.clear();
    for (const auto &q : ready_)
        if (!q.second.empty() && (q.second.front().due <= cycle_ || !cfg_.reorder))
            heads_.push_back(&q.second.front());
    if (heads_.empty()) return false;
    std::sort(heads_.begin(), heads_.end(),
              [](const Burst *x, const Burst *y) { return x->seq < y->seq; });
    if (cfg_.reorder) {
        *b = *heads_[rng_.intn(heads_.size())];
        return true;
    }
    if (heads_[0]->due > cycle_) return false;
    *b = *heads_[0];
    return true;
}

void AxiSlave::observe(const uint64_t *in, const uint64_t *out) {
    if ((out[off_[kAwvalid]] & 1) && awready_) {
        Burst b{};
        b.seq = nseq_++;
        b.id = static_cast<uint32_t>(out[off_[kAwid]]);
        b.len = static_cast<int>(out[off_[kAwlen]] & 0xff) + 1;
        if (chance(cfg_.slv_err)) {
            b.resp = MPARX_AXI_SLVERR;
            st_.slv_errs++;
        } else if (chance(cfg_.dec_err)) {
            b.resp = MPARX_AXI_DECERR;
            st_.dec_errs++;
        }
        resps_.push_back(b.resp);
        bursts_.push_back(b);
        open_++;
        st_.max_open = std::max(st_.max_open, open_);
        st_.bursts++;
    }
    if ((out[off_[kWvalid]] & 1) && wready_) {
        early_++;
        st_.beats++;
    }
    // beats meet their bursts in order
    while (early_ > 0 && !bursts_.empty()) {
        Burst &b = bursts_.front();
        early_--;
        if (++b.beats == b.len) {
            b.due = cycle_ + 1 + static_cast<uint64_t>(cfg_.latency);
            if (cfg_.jitter > 0) b.due += rng_.intn(static_cast<uint64_t>(cfg_.jitter) + 1);
            ready_[b.id].push_back(b);
            bursts_.pop_front();
        }
    }
    if ((in[off_[kBvalid]] & 1) && (out[off_[kBready]] & 1)) {
        ready_[pres_.id].pop_front();
        present_ = false;
        open_--;
        st_.responses++;
    }
    cycle_++;
}

void AxiSlave::stats(mparx_axi_slave_stats *st) const {
    *st = st_;
    st->open = open_;
    st->early = early_;
}

int64_t AxiSlave::take_resps(uint8_t *dst, int64_t cap) {
    int64_t n = std::min<int64_t>(cap, static_cast<int64_t>(resps_.size()));
    if (n > 0) std::memcpy(dst, resps_.data(), static_cast<size_t>(n));
    resps_.erase(resps_.begin(), resps_.begin() + n);
    return n;
}

}  // namespace mparx
