// mpa_rx_ddp's bounded liveness (`F_DDP_LIVE), included at the end of its
// `ifdef FORMAL section: properties only, read by the formal proofs alone.
// ------------------------------------------------ bounded liveness
// With m_evt always ready (and the token and descriptor FIFOs never full,
// as above) and a frame's records in the walker's FIFO by the time E1
// wants them (assumed: rec_valid whenever the frame taken, or the one at
// the verdict queue's head, has a record not yet taken; mpa_rx_walk's
// records of a frame leave before its summary, so before its verdict
// record): E1 starts a frame (its VERDICT event) in the cycle it is at the
// verdict queue's head and the frame before it has its token, and gives its
// token at most this many cycles after that (f_bound), R its records
// (VQ_NREC): with one event lane 1 + 4 R for a PLACE frame (the second
// event, then per record a lookup, a check, the FPDU event and DELIVERED),
// 1 + R for any other; with two lanes 2 R for a PLACE frame (its first
// record looked up with or before its VERDICT beat, the next in the cycle
// of a record's beat), R for any other. f_dc: cycles since that start.
// ddp_l1_live and ddp_l2_live assume every assertion of mpa_rx_ddp.v
// (ddp_l1 and ddp_l2 prove them) and prove the ones of this file: their
// Yosys pass selects the assertions by source file (scripts/formal/proofs.txt).
always @* begin
    assume (m_evt_tready);
    if (f_own_p || (vq_valid && f_h_taken < vq_nrec))
        assume (rec_valid);
end
reg  [19:0] f_dc = 20'd0;
wire        f_dpend = vq_valid || f_p_tok;     // a frame at the head or taken, without its token
always @(posedge clk) begin
    f_dc <= f_dc + 20'd1;
    if (rst || tok_valid || !f_dpend)
        f_dc <= 20'd0;
end
localparam [3:0]  F_PER_REC = EVT_LANES == 1 ? 4'd4 : 4'd2;
localparam [19:0] F_FIRST = EVT_LANES == 1 ? 20'd1 : 20'd0;
function [19:0] f_bound(input [VQ_W-1:0] v);
    begin
        f_bound = v[VQ_VERDICT +: VQ_VERDICT_W] == VERDICT_PLACE ? F_FIRST + F_PER_REC * {4'd0, v[VQ_NREC +: 16]}
                                                                  : F_FIRST + {4'd0, v[VQ_NREC +: 16]};
    end
endfunction
always @* begin
    if (!rst) begin
        if (tok_valid)
            assert (f_dc <= f_bound(f_tf));
        cover (tok_valid && f_tf[VQ_VERDICT +: 2] == VERDICT_PLACE && f_tf[VQ_NREC +: 16] == 16'd1 &&
               f_dc == f_bound(f_tf));
        cover (tok_valid && f_tf[VQ_VERDICT +: 2] == VERDICT_DROP && f_tf[VQ_NREC +: 16] == 16'd2 &&
               f_dc == f_bound(f_tf));
    end
end
// induction invariants: how far a frame is, against f_dc
generate
if (EVT_LANES == 1) begin : f_one_live
    wire [2:0]  ph = g_one.ph;
    wire [19:0] f_done = {4'd0, vq_nrec - g_one.left};   // records taken
    always @* begin
        if (!rst && vq_valid) begin
            if (ph == 3'd0)
                assert (f_dc == 20'd0);
            if (ph == 3'd1)
                assert (f_dc == 20'd1);
            if (place) begin
                if (ph == 3'd2)
                    assert (f_dc <= 20'd2 + 20'd4 * f_done);
                if (ph == 3'd3)
                    assert (f_dc <= 20'd3 + 20'd4 * f_done);
                if (ph == 3'd4)
                    assert (f_dc <= 20'd4 + 20'd4 * f_done);
                if (ph == 3'd5)
                    assert (f_dc <= 20'd5 + 20'd4 * f_done);
            end else if (ph == 3'd2)
                assert (f_dc <= 20'd2 + f_done);
        end
    end
end
if (EVT_LANES == 2) begin : f_two_live
    wire [1:0]  rs = g_wide.rs;
    wire [19:0] f_done = {4'd0, f_p[VQ_NREC +: 16] - g_wide.cf_left};   // cf's records taken
    always @* begin
        if (!rst) begin
            if (!f_p_tok && vq_valid)
                assert (f_dc == 20'd0);
            if (f_p_tok) begin
                assert (f_p_left <= f_p[VQ_NREC +: 16]);
                if (f_p[VQ_VERDICT +: 2] == VERDICT_PLACE) begin
                    if (rs == 2'd0 || (rs == 2'd2 && g_wide.rs_cf))
                        assert (f_dc <= 20'd2 * f_done);
                    if (rs == 2'd1 && g_wide.rs_cf)
                        assert (f_dc + 20'd1 <= 20'd2 * f_done);
                end else begin
                    // a frame that is not PLACE ends with its last discard
                    assert (f_p_left != 16'd0);
                    assert (f_dc <= 20'd1 + f_done);
                end
            end
        end
    end
end
endgenerate
