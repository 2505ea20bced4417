"""The reference design's three MIL test programs (RMS norm + int8 SwiGLU, conv
chain + conv-SiLU, 2-layer MLP training), shared by the reader's and the
scheduler's tests. ``{d}`` is the directory holding the raw blob files.

They are valid MIL: every declared type is the one MIL infers (the seed wrote
them for HWX, where [1, n, 1, 1] and [1, 1, 1, n] are one vector in two
layouts; here explicit reshapes move between them). ``rms_norm`` is npubuild's
extension op, over the last axis. The computation is the seed's, value for value."""

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
        tensor<int32, [4]> row = const()[val = tensor<int32, [4]>([1, 1, 1, 64])];
        tensor<fp16, [1, 1, 1, 64]> xr = reshape(x = x, shape = row)[name = string("xr")];
        tensor<fp16, [1, 1, 1, 64]> xn = rms_norm(x = xr, w = gam, eps = fp16(0.00001))[name = string("xn")];
        tensor<fp16, [1, 1, 1, 128]> u = matmul(x = xn, y = Wu, transpose_y = bt)[name = string("u")];
        tensor<fp16, [1, 1, 1, 128]> g = matmul(x = xn, y = Wg, transpose_y = bt)[name = string("g")];
        tensor<fp16, [1, 1, 1, 128]> gs = sigmoid(x = g)[name = string("gs")];
        tensor<fp16, [1, 1, 1, 128]> gsl = mul(x = g, y = gs)[name = string("gsl")];
        tensor<fp16, [1, 1, 1, 128]> fu = mul(x = u, y = gsl)[name = string("fu")];
        tensor<fp16, [1, 1, 1, 64]> dn = matmul(x = fu, y = Wd, transpose_y = bt)[name = string("dn")];
        tensor<fp16, [1, 64, 1, 1]> dnc = reshape(x = dn, shape = tensor<int32, [4]>([1, 64, 1, 1]))[name = string("dnc")];
        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = dnc)[name = string("y")];
    }} -> (y);
}}"""

FUSE = """program(1.3)
{{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {{
        tensor<fp16, [96, 64, 1, 1]> W1 = const()[val = tensor<fp16, [96, 64, 1, 1]>(BLOBFILE(path = string("{d}/w1.bin"), offset = uint64(0)))];
        tensor<fp16, [64, 96, 1, 1]> W2 = const()[val = tensor<fp16, [64, 96, 1, 1]>(BLOBFILE(path = string("{d}/w2.bin"), offset = uint64(0)))];
        tensor<fp16, [64, 64, 1, 1]> W3 = const()[val = tensor<fp16, [64, 64, 1, 1]>(BLOBFILE(path = string("{d}/w3.bin"), offset = uint64(0)))];
        string pt = const()[val = string("valid")];
        tensor<int32, [2]> st = const()[val = tensor<int32, [2]>([1, 1])];
        tensor<int32, [4]> pd = const()[val = tensor<int32, [4]>([0, 0, 0, 0])];
        tensor<int32, [2]> dl = const()[val = tensor<int32, [2]>([1, 1])];
        int32 gr = const()[val = int32(1)];
        tensor<fp16, [1, 96, 1, 1]> c1 = conv(dilations = dl, groups = gr, pad = pd, pad_type = pt, strides = st, weight = W1, x = x)[name = string("c1")];
        tensor<fp16, [1, 64, 1, 1]> c2 = conv(dilations = dl, groups = gr, pad = pd, pad_type = pt, strides = st, weight = W2, x = c1)[name = string("c2")];
        tensor<fp16, [1, 64, 1, 1]> g = conv(dilations = dl, groups = gr, pad = pd, pad_type = pt, strides = st, weight = W3, x = c2)[name = string("g")];
        tensor<fp16, [1, 64, 1, 1]> gs = sigmoid(x = g)[name = string("gs")];
        tensor<fp16, [1, 64, 1, 1]> gsl = mul(x = g, y = gs)[name = string("gsl")];
        tensor<fp16, [1, 64, 1, 1]> y = add(x = c2, y = gsl)[name = string("y")];
    }} -> (y);
}}"""

# z1 = W1 x: x [1, 1, 1, 64] against W1's 64 rows [1, 64, 1, 64] (a batch of 64 one-row
# products); y = W2 h the same way with h as a row; dh = W2^T dy needs W2 as one [64, 64]
# matrix; the outer products dW = (-lr dz) x^T broadcast a column [1, 64, 1, 1] against a row.
TRAIN = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 1, 1, 64]> x,
                     tensor<fp16, [1, 64, 1, 1]> target,
                     tensor<fp16, [1, 64, 1, 1]> neg_lr,
                     tensor<fp16, [1, 64, 1, 1]> one,
                     tensor<fp16, [1, 64, 1, 64]> W1,
                     tensor<fp16, [1, 64, 1, 64]> W2) {
        tensor<bool, []> bt = const()[val = bool(true)];
        tensor<int32, [4]> row = const()[val = tensor<int32, [4]>([1, 1, 1, 64])];
        tensor<int32, [4]> col = const()[val = tensor<int32, [4]>([1, 64, 1, 1])];
        tensor<fp16, [1, 64, 1, 1]> z1 = matmul(x = x, y = W1, transpose_y = bt)[name = string("z1")];
        tensor<fp16, [1, 64, 1, 1]> h = sigmoid(x = z1)[name = string("h")];
        tensor<fp16, [1, 1, 1, 64]> hr = reshape(x = h, shape = row)[name = string("hr")];
        tensor<fp16, [1, 64, 1, 1]> y = matmul(x = hr, y = W2, transpose_y = bt)[name = string("y")];
        tensor<fp16, [1, 64, 1, 1]> dy = sub(x = y, y = target)[name = string("dy")];
        tensor<fp16, [1, 64, 1, 1]> ndy = mul(x = dy, y = neg_lr)[name = string("ndy")];
        tensor<fp16, [1, 1, 64, 1]> dyc = reshape(x = dy, shape = tensor<int32, [4]>([1, 1, 64, 1]))[name = string("dyc")];
        tensor<fp16, [1, 1, 64, 64]> W2m = reshape(x = W2, shape = tensor<int32, [4]>([1, 1, 64, 64]))[name = string("W2m")];
        tensor<fp16, [1, 1, 1, 64]> dhr = matmul(x = dyc, y = W2m, transpose_x = bt)[name = string("dhr")];
        tensor<fp16, [1, 64, 1, 1]> dh = reshape(x = dhr, shape = col)[name = string("dh")];
        tensor<fp16, [1, 64, 1, 1]> omh = sub(x = one, y = h)[name = string("omh")];
        tensor<fp16, [1, 64, 1, 1]> ds = mul(x = h, y = omh)[name = string("ds")];
        tensor<fp16, [1, 64, 1, 1]> dz1 = mul(x = dh, y = ds)[name = string("dz1")];
        tensor<fp16, [1, 64, 1, 1]> ndz1 = mul(x = dz1, y = neg_lr)[name = string("ndz1")];
        tensor<fp16, [1, 64, 1, 64]> dW2 = matmul(x = ndy, y = hr, transpose_x = bt)[name = string("dW2")];
        tensor<fp16, [1, 64, 1, 64]> W2_new = add(x = W2, y = dW2)[name = string("W2_new")];
        tensor<fp16, [1, 64, 1, 64]> dW1 = matmul(x = ndz1, y = x, transpose_x = bt)[name = string("dW1")];
        tensor<fp16, [1, 64, 1, 64]> W1_new = add(x = W1, y = dW1)[name = string("W1_new")];
    } -> (y, W1_new, W2_new);
}"""
