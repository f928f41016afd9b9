// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
//
// cosim_model.h: the C++ side of the co-simulation harness. SimBase holds what
// every variant shares (ports, stream sources, trace settings); SimModel<T, P>
// is the stepping loop for one Verilated class T, with the port copy functions
// P generated per variant by cosim/internal/shimgen into
// sim/build/<variant>/shim.cpp. The loop is a template so that the per-cycle
// port copies are inlined; the only virtual calls are once per batch and,
// for a model with bus partners (Agent, cosim_axi.h), two per partner per
// cycle.
#ifndef MPARX_COSIM_MODEL_H
#define MPARX_COSIM_MODEL_H

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cosim_axi.h"
#include "mparxsim.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace mparx {

// Static description of a port, emitted by the generator.
struct PortInfo {
    const char *name;
    int dir;
    int width;
    int offset;
    int words;
};

// One AXI4-Stream style source (see mparx_sim_source_add).
struct Source {
    int valid_word = 0;
    int ready_word = 0;
    std::vector<std::pair<int, int>> payload;  // (input word offset, words)
    mparx_queue q{};
    uint64_t gap_left = 0;  // idle cycles left before the head beat
    bool head_loaded = false;

    ~Source() { std::free(q.buf); }

    // Drives the source's ports for this cycle into the input record.
    inline void apply(uint64_t *in) {
        if (!head_loaded) {
            if (q.head + q.rec_words > q.tail) {
                in[valid_word] = 0;
                return;
            }
            gap_left = q.buf[q.head];
            head_loaded = true;
        }
        if (gap_left > 0) {
            in[valid_word] = 0;
            return;
        }
        const uint64_t *rec = q.buf + q.head + 1;
        for (const auto &p : payload) {
            std::memcpy(in + p.first, rec, sizeof(uint64_t) * p.second);
            rec += p.second;
        }
        in[valid_word] = 1;
    }

    // Takes the handshake after the outputs of this cycle are known.
    inline void handshake(const uint64_t *in, const uint64_t *out) {
        if (!head_loaded) return;
        if (gap_left > 0) {
            gap_left--;
            return;
        }
        if ((in[valid_word] & 1) && (out[ready_word] & 1)) {
            q.head += q.rec_words;
            q.accepted++;
            head_loaded = false;
        }
    }
};

class SimBase {
  public:
    SimBase(const PortInfo *ports, int nports, int in_words, int out_words)
        : ports_(ports), nports_(nports), in_words_(in_words), out_words_(out_words) {}
    virtual ~SimBase() = default;

    virtual int64_t step(int64_t n, uint64_t *in, uint64_t *out) = 0;
    virtual bool open_trace(const std::string &path, uint64_t from, std::string *err) = 0;
    virtual void flush() = 0;
    virtual void finish() = 0;

    const PortInfo *ports() const { return ports_; }
    int nports() const { return nports_; }
    int in_words() const { return in_words_; }
    int out_words() const { return out_words_; }
    uint64_t cycle() const { return cycle_; }

    int add_source(int valid_port, int ready_port, const int32_t *payload, int npayload,
                   std::string *err);
    Source *source(int i) {
        return i >= 0 && i < static_cast<int>(sources_.size()) ? sources_[i].get() : nullptr;
    }
    void reserve(int i, int64_t words);

    int add_axi_slave(const mparx_axi_slave_config &cfg, const int32_t *ports, int nports,
                      std::string *err);
    AxiSlave *axi_slave(int i) {
        return i >= 0 && i < static_cast<int>(slaves_.size()) ? slaves_[i] : nullptr;
    }

  protected:
    const PortInfo *ports_;
    int nports_;
    int in_words_;
    int out_words_;
    uint64_t cycle_ = 0;
    std::vector<std::unique_ptr<Source>> sources_;
    std::vector<std::unique_ptr<Agent>> agents_;  // in the order they were added
    std::vector<AxiSlave *> slaves_;              // the AXI4 slaves among them
};

// HasTrace<T>::value: the Verilated class T has waveform support (Verilator's
// --trace-fst, which mk/sim.mk gives the variants named in SIM_TRACE).
template <class T, class = void>
struct HasTrace : std::false_type {};
template <class T>
struct HasTrace<T, std::void_t<decltype(std::declval<T &>().trace(
                       static_cast<VerilatedFstC *>(nullptr), 0))>> : std::true_type {};

// P provides: using Top = T; static void set_in(T*, const uint64_t*);
// static void get_out(const T*, uint64_t*); static void set_clk(T*, uint8_t).
template <class T, class P>
class SimModel final : public SimBase {
  public:
    SimModel(const PortInfo *ports, int nports, int in_words, int out_words, bool trace)
        : SimBase(ports, nports, in_words, out_words), ctx_(new VerilatedContext) {
        ctx_->traceEverOn(trace);
        top_.reset(new T(ctx_.get(), "TOP"));
        P::set_clk(top_.get(), 0);
        top_->eval();
    }

    ~SimModel() override { finish(); }

    bool open_trace(const std::string &path, uint64_t from, std::string *err) override {
        if constexpr (HasTrace<T>::value) {
            tfp_.reset(new VerilatedFstC);
            top_->trace(tfp_.get(), 99);
            tfp_->open(path.c_str());
            if (!tfp_->isOpen()) {
                *err = "cannot open trace file " + path;
                tfp_.reset();
                return false;
            }
            trace_from_ = from;
            return true;
        } else {
            (void)from;
            *err = "built without waveform support (rebuild with `make sim-libs SIM_TRACE=all` "
                   "or SIM_TRACE=<variant>); no trace written to " + path;
            return false;
        }
    }

    void flush() override {
        if (tfp_) tfp_->flush();
    }

    void finish() override {
        if (finished_) return;
        finished_ = true;
        top_->final();
        if (tfp_) {
            tfp_->close();
            tfp_.reset();
        }
    }

    int64_t step(int64_t n, uint64_t *in, uint64_t *out) override {
        T *m = top_.get();
        const bool has_src = !sources_.empty();
        const bool has_agents = !agents_.empty();
        for (int64_t c = 0; c < n; c++) {
            uint64_t *iw = in + c * in_words_;
            uint64_t *ow = out + c * out_words_;
            if (has_src)
                for (auto &s : sources_) s->apply(iw);
            if (has_agents)
                for (auto &a : agents_) a->drive(iw);
            P::set_in(m, iw);
            P::set_clk(m, 0);
            m->eval();
            P::get_out(m, ow);
            if (tfp_ && cycle_ >= trace_from_) tfp_->dump(cycle_ * 10);
            if (has_src)
                for (auto &s : sources_) s->handshake(iw, ow);
            if (has_agents)
                for (auto &a : agents_) a->observe(iw, ow);
            P::set_clk(m, 1);
            m->eval();
            if (tfp_ && cycle_ >= trace_from_) tfp_->dump(cycle_ * 10 + 5);
            cycle_++;
        }
        return n;
    }

    // The benchmark baseline: the same loop with no sources, no trace and
    // no output record, written as a hand-made C++ testbench would be.
    static int64_t plain_loop(int64_t n, const uint64_t *in, int in_words, int out_words,
                              uint64_t *checksum) {
        std::unique_ptr<VerilatedContext> ctx(new VerilatedContext);
        std::unique_ptr<T> m(new T(ctx.get(), "TOP"));
        std::vector<uint64_t> ow(out_words > 0 ? out_words : 1);
        uint64_t sum = 0;
        P::set_clk(m.get(), 0);
        m->eval();
        auto t0 = std::chrono::steady_clock::now();
        for (int64_t c = 0; c < n; c++) {
            P::set_in(m.get(), in + c * in_words);
            P::set_clk(m.get(), 0);
            m->eval();
            P::get_out(m.get(), ow.data());
            sum += ow[0];
            P::set_clk(m.get(), 1);
            m->eval();
        }
        auto t1 = std::chrono::steady_clock::now();
        m->final();
        *checksum = sum;
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
    }

  private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<T> top_;
    std::unique_ptr<VerilatedFstC> tfp_;
    uint64_t trace_from_ = 0;
    bool finished_ = false;
};

// A registry entry, emitted by the generator into sim/build/registry.cpp.
struct Variant {
    const char *name;
    SimBase *(*create)(bool trace);
    int64_t (*plain_loop)(int64_t n, const uint64_t *in, uint64_t *checksum);
};

}  // namespace mparx

extern "C" const mparx::Variant mparx_variant_table[];

#endif  // MPARX_COSIM_MODEL_H
