"""The reference design's three MIL test programs (RMS norm + int8 SwiGLU, conv
chain + conv-SiLU, 2-layer MLP training), shared by the reader's and the
scheduler's tests. ``{d}`` is the directory holding the raw blob files."""

SWIGLU = """program(1.3)
{{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {{
        tensor<fp16, [64]> gam = const()[val = tensor<fp16, [64]>(BLOBFILE(path = string("{d}/gam.bin"), offset = uint64(0)))];
        tensor<int8, [128, 64]> Wu_q = const()[val = tensor<int8, [128, 64]>(BLOBFILE(path = string("{d}/wu_q8.bin"), offset = uint64(0)))];
        tensor<fp16, [128, 2]> Wu_s = const()[val = tensor<fp16, [128, 2]>(BLOBFILE(path = string("{d}/wu_sc.bin"), offset = uint64(0)))];
        tensor<fp16, [128, 64]> Wu = constexpr_blockwise_shift_scale(data = Wu_q, scale = Wu_s)[name = string("Wu")];
        tensor<fp16, [128, 64]> Wg = const()[val = tensor<fp16, [128, 64]>(BLOBFILE(path = string("{d}/wg.bin"), offset = uint64(0)))];
        tensor<fp16, [64, 128]> Wd = const()[val = tensor<fp16, [64, 128]>(BLOBFILE(path = string("{d}/wd.bin"), offset = uint64(0)))];
        tensor<bool, []> bt = const()[val = bool(true)];
        tensor<fp16, [1, 64, 1, 1]> xn = rms_norm(x = x, w = gam, eps = fp16(0.00001))[name = string("xn")];
        tensor<fp16, [1, 1, 1, 128]> u = matmul(x = xn, y = Wu, transpose_y = bt)[name = string("u")];
        tensor<fp16, [1, 1, 1, 128]> g = matmul(x = xn, y = Wg, transpose_y = bt)[name = string("g")];
        tensor<fp16, [1, 128, 1, 1]> gs = sigmoid(x = g)[name = string("gs")];
        tensor<fp16, [1, 128, 1, 1]> gsl = mul(x = g, y = gs)[name = string("gsl")];
        tensor<fp16, [1, 128, 1, 1]> fu = mul(x = u, y = gsl)[name = string("fu")];
        tensor<fp16, [1, 1, 1, 64]> dn = matmul(x = fu, y = Wd, transpose_y = bt)[name = string("dn")];
        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = dn)[name = string("y")];
    }} -> (y);
}}"""

FUSE = """program(1.3)
{{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {{
        tensor<fp16, [96, 64, 1, 1]> W1 = const()[val = tensor<fp16, [96, 64, 1, 1]>(BLOBFILE(path = string("{d}/w1.bin"), offset = uint64(0)))];
        tensor<fp16, [64, 96, 1, 1]> W2 = const()[val = tensor<fp16, [64, 96, 1, 1]>(BLOBFILE(path = string("{d}/w2.bin"), offset = uint64(0)))];
        tensor<fp16, [64, 64, 1, 1]> W3 = const()[val = tensor<fp16, [64, 64, 1, 1]>(BLOBFILE(path = string("{d}/w3.bin"), offset = uint64(0)))];
        tensor<fp16, [1, 96, 1, 1]> c1 = conv(weight = W1, x = x)[name = string("c1")];
        tensor<fp16, [1, 64, 1, 1]> c2 = conv(weight = W2, x = c1)[name = string("c2")];
        tensor<fp16, [1, 64, 1, 1]> g = conv(weight = W3, x = c2)[name = string("g")];
        tensor<fp16, [1, 64, 1, 1]> gs = sigmoid(x = g)[name = string("gs")];
        tensor<fp16, [1, 64, 1, 1]> gsl = mul(x = g, y = gs)[name = string("gsl")];
        tensor<fp16, [1, 64, 1, 1]> y = add(x = c2, y = gsl)[name = string("y")];
    }} -> (y);
}}"""

TRAIN = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 1, 1, 64]> x,
                     tensor<fp16, [1, 64, 1, 1]> target,
                     tensor<fp16, [1, 64, 1, 1]> neg_lr,
                     tensor<fp16, [1, 64, 1, 1]> one,
                     tensor<fp16, [1, 64, 1, 64]> W1,
                     tensor<fp16, [1, 64, 1, 64]> W2) {
        tensor<bool, []> bt = const()[val = bool(true)];
        tensor<fp16, [1, 64, 1, 1]> z1 = matmul(x = x, y = W1, transpose_y = bt)[name = string("z1")];
        tensor<fp16, [1, 64, 1, 1]> h = sigmoid(x = z1)[name = string("h")];
        tensor<fp16, [1, 64, 1, 1]> y = matmul(x = h, y = W2, transpose_y = bt)[name = string("y")];
        tensor<fp16, [1, 64, 1, 1]> dy = sub(x = y, y = target)[name = string("dy")];
        tensor<fp16, [1, 64, 1, 1]> ndy = mul(x = dy, y = neg_lr)[name = string("ndy")];
        tensor<fp16, [1, 1, 1, 64]> dh = matmul(x = dy, y = W2, transpose_x = bt)[name = string("dh")];
        tensor<fp16, [1, 64, 1, 1]> omh = sub(x = one, y = h)[name = string("omh")];
        tensor<fp16, [1, 64, 1, 1]> ds = mul(x = h, y = omh)[name = string("ds")];
        tensor<fp16, [1, 64, 1, 1]> dz1 = mul(x = dh, y = ds)[name = string("dz1")];
        tensor<fp16, [1, 64, 1, 1]> ndz1 = mul(x = dz1, y = neg_lr)[name = string("ndz1")];
        tensor<fp16, [1, 64, 1, 64]> dW2 = matmul(x = ndy, y = h, transpose_x = bt)[name = string("dW2")];
        tensor<fp16, [1, 64, 1, 64]> W2_new = add(x = W2, y = dW2)[name = string("W2_new")];
        tensor<fp16, [1, 64, 1, 64]> dW1 = matmul(x = ndz1, y = x, transpose_x = bt)[name = string("dW1")];
        tensor<fp16, [1, 64, 1, 64]> W1_new = add(x = W1, y = dW1)[name = string("W1_new")];
    } -> (y, W1_new, W2_new);
}"""
