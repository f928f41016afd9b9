// Paths of known depth for lutdepth's test through Yosys (synth_xilinx
// -flatten): each output register is fed by one structure whose depth in
// LUT levels follows from the structure alone.
`default_nettype none
module known (
    input  wire        clk,
    input  wire [35:0] a,
    input  wire [31:0] x,
    input  wire [31:0] y,
    input  wire [4:0]  wa,
    input  wire [3:0]  wd,
    input  wire        we,
    output reg         o6,
    output reg         o36,
    output reg  [31:0] sum,
    output reg  [3:0]  q
);
reg [35:0] ra;
reg [31:0] rx, ry;
reg [4:0]  r1, r2;
reg [3:0]  mem [0:31];
always @(posedge clk) begin
    ra <= a;
    rx <= x;
    ry <= y;
    r1 <= x[4:0];
    r2 <= y[4:0];
    // 6 inputs: one LUT6
    o6 <= ^ra[5:0];
    // 36 inputs: at least 2 levels of 6-input LUTs, and 2 suffice
    o36 <= ^ra;
    // a 32-bit adder: one LUT per bit, then 8 CARRY4 in a chain
    sum <= rx + ry;
    // a LUT per address bit, then the asynchronous read of a LUT RAM
    q <= mem[r1 ^ r2];
    if (we) mem[wa] <= wd;
end
endmodule
