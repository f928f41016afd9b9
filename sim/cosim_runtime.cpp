// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
//
// cosim_runtime.cpp: the C interface of cosim/mparxsim.h over the variant
// registry (sim/build/registry.cpp) and SimBase (cosim_model.h).
#include <cstdio>
#include <cstring>
#include <string>

#include "cosim_model.h"

struct mparx_sim {
    mparx::SimBase *impl;
};

namespace {

void set_err(char *err, int32_t errlen, const std::string &msg) {
    if (err == nullptr || errlen <= 0) return;
    std::snprintf(err, static_cast<size_t>(errlen), "%s", msg.c_str());
}

const mparx::Variant *find_variant(const char *name) {
    for (const mparx::Variant *v = mparx_variant_table; v->name != nullptr; v++)
        if (std::strcmp(v->name, name) == 0) return v;
    return nullptr;
}

std::string variant_names() {
    std::string s;
    for (const mparx::Variant *v = mparx_variant_table; v->name != nullptr; v++) {
        if (!s.empty()) s += ' ';
        s += v->name;
    }
    return s;
}

}  // namespace

namespace mparx {

int SimBase::add_source(int valid_port, int ready_port, const int32_t *payload, int npayload,
                        std::string *err) {
    auto port_ok = [&](int i, int dir) {
        return i >= 0 && i < nports_ && ports_[i].dir == dir;
    };
    if (!port_ok(valid_port, MPARX_IN) || ports_[valid_port].width != 1) {
        *err = "source valid port must be a 1-bit input";
        return -1;
    }
    if (!port_ok(ready_port, MPARX_OUT) || ports_[ready_port].width != 1) {
        *err = "source ready port must be a 1-bit output";
        return -1;
    }
    std::unique_ptr<Source> s(new Source);
    s->valid_word = ports_[valid_port].offset;
    s->ready_word = ports_[ready_port].offset;
    int rec = 1;
    for (int i = 0; i < npayload; i++) {
        int p = payload[i];
        if (!port_ok(p, MPARX_IN) || p == valid_port) {
            *err = "source payload ports must be inputs other than valid";
            return -1;
        }
        s->payload.emplace_back(ports_[p].offset, ports_[p].words);
        rec += ports_[p].words;
    }
    s->q.rec_words = rec;
    s->q.cap = 0;
    sources_.push_back(std::move(s));
    return static_cast<int>(sources_.size()) - 1;
}

int SimBase::add_axi_slave(const mparx_axi_slave_config &cfg, const int32_t *ports, int nports,
                           std::string *err) {
    if (nports != kAxiSlavePorts) {
        *err = "an AXI4 slave takes " + std::to_string(kAxiSlavePorts) + " ports";
        return -1;
    }
    if (cfg.data_bytes <= 0 || (cfg.data_bytes & (cfg.data_bytes - 1)) != 0) {
        *err = "AXI4 slave: data_bytes " + std::to_string(cfg.data_bytes) + " is not a power of two";
        return -1;
    }
    int off[kAxiSlavePorts];
    for (int i = 0; i < kAxiSlavePorts; i++) {
        int p = ports[i];
        int dir = i < kAwvalid ? MPARX_IN : MPARX_OUT;
        if (p < 0 || p >= nports_ || ports_[p].dir != dir || ports_[p].width > 64) {
            *err = "AXI4 slave: port " + std::to_string(i) + " is not a " +
                   (dir == MPARX_IN ? "input" : "output") + " of at most 64 bits";
            return -1;
        }
        off[i] = ports_[p].offset;
    }
    auto *a = new AxiSlave(cfg, off);
    agents_.emplace_back(a);
    slaves_.push_back(a);
    return static_cast<int>(slaves_.size()) - 1;
}

void SimBase::reserve(int i, int64_t words) {
    Source *s = source(i);
    if (s == nullptr) return;
    mparx_queue &q = s->q;
    if (q.tail + words <= q.cap) return;
    // Compact: drop consumed words.
    if (q.head > 0) {
        std::memmove(q.buf, q.buf + q.head, sizeof(uint64_t) * (q.tail - q.head));
        q.tail -= q.head;
        q.head = 0;
    }
    if (q.tail + words <= q.cap) return;
    int64_t cap = q.cap > 0 ? q.cap : 4096;
    while (cap < q.tail + words) cap *= 2;
    auto *nb = static_cast<uint64_t *>(std::realloc(q.buf, sizeof(uint64_t) * cap));
    if (nb == nullptr) std::abort();
    q.buf = nb;
    q.cap = cap;
}

}  // namespace mparx

extern "C" {

const char *mparx_sim_variants(void) {
    static const std::string names = variant_names();
    return names.c_str();
}

mparx_sim *mparx_sim_open(const char *variant, const char *trace_path, uint64_t trace_from,
                          char *err, int32_t errlen) {
    const mparx::Variant *v = find_variant(variant);
    if (v == nullptr) {
        set_err(err, errlen,
                std::string("unknown variant ") + variant + " (built: " + variant_names() + ")");
        return nullptr;
    }
    bool trace = trace_path != nullptr && trace_path[0] != '\0';
    mparx::SimBase *impl = v->create(trace);
    if (trace) {
        std::string msg;
        if (!impl->open_trace(trace_path, trace_from, &msg)) {
            delete impl;
            set_err(err, errlen, msg);
            return nullptr;
        }
    }
    return new mparx_sim{impl};
}

void mparx_sim_close(mparx_sim *s) {
    if (s == nullptr) return;
    s->impl->finish();
    delete s->impl;
    delete s;
}

int32_t mparx_sim_nports(const mparx_sim *s) { return s->impl->nports(); }

mparx_port mparx_sim_port(const mparx_sim *s, int32_t i) {
    mparx_port p{};
    if (i < 0 || i >= s->impl->nports()) return p;
    const mparx::PortInfo &pi = s->impl->ports()[i];
    p.name = pi.name;
    p.dir = pi.dir;
    p.width = pi.width;
    p.offset = pi.offset;
    p.words = pi.words;
    return p;
}

int32_t mparx_sim_in_words(const mparx_sim *s) { return s->impl->in_words(); }
int32_t mparx_sim_out_words(const mparx_sim *s) { return s->impl->out_words(); }

int32_t mparx_sim_source_add(mparx_sim *s, int32_t valid_port, int32_t ready_port,
                             const int32_t *payload_ports, int32_t npayload, char *err,
                             int32_t errlen) {
    std::string msg;
    int id = s->impl->add_source(valid_port, ready_port, payload_ports, npayload, &msg);
    if (id < 0) set_err(err, errlen, msg);
    return id;
}

mparx_queue *mparx_sim_source_queue(mparx_sim *s, int32_t source) {
    mparx::Source *src = s->impl->source(source);
    return src == nullptr ? nullptr : &src->q;
}

void mparx_sim_source_reserve(mparx_sim *s, int32_t source, int64_t words) {
    s->impl->reserve(source, words);
}

int64_t mparx_sim_step(mparx_sim *s, int64_t n, uint64_t *in, uint64_t *out) {
    return s->impl->step(n, in, out);
}

uint64_t mparx_sim_cycle(const mparx_sim *s) { return s->impl->cycle(); }

int32_t mparx_sim_axi_slave_add(mparx_sim *s, const mparx_axi_slave_config *cfg,
                                const int32_t *ports, int32_t nports, char *err, int32_t errlen) {
    std::string msg;
    int id = s->impl->add_axi_slave(*cfg, ports, nports, &msg);
    if (id < 0) set_err(err, errlen, msg);
    return id;
}

void mparx_sim_axi_slave_stats(const mparx_sim *s, int32_t slave, mparx_axi_slave_stats *st) {
    const mparx::AxiSlave *a = const_cast<mparx::SimBase *>(s->impl)->axi_slave(slave);
    if (a == nullptr) {
        *st = mparx_axi_slave_stats{};
        return;
    }
    a->stats(st);
}

int64_t mparx_sim_axi_slave_take_resps(mparx_sim *s, int32_t slave, uint8_t *dst, int64_t cap) {
    mparx::AxiSlave *a = s->impl->axi_slave(slave);
    return a == nullptr ? 0 : a->take_resps(dst, cap);
}

void mparx_go_rand(uint64_t seed1, uint64_t seed2, int32_t kind, uint64_t mod, int64_t n,
                   uint64_t *out) {
    mparx::GoRand r(seed1, seed2);
    for (int64_t i = 0; i < n; i++) {
        switch (kind) {
            case 0:
                out[i] = r.uint64();
                break;
            case 1: {
                double f = r.float64();
                std::memcpy(&out[i], &f, sizeof f);
                break;
            }
            default:
                out[i] = r.intn(mod);
        }
    }
}

void mparx_sim_flush(mparx_sim *s) { s->impl->flush(); }

int64_t mparx_sim_plain_loop(const char *variant, int64_t n, const uint64_t *in,
                             uint64_t *checksum) {
    const mparx::Variant *v = find_variant(variant);
    if (v == nullptr) return -1;
    return v->plain_loop(n, in, checksum);
}

}  // extern "C"
