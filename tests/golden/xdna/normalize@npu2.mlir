// npubuild xdna kernel layer_norm_f32_32x256_256_256
// op: layer_norm, dtype: f32, attrs: {"eps":1e-05}
// inputs: x: 32x256 f32, gamma: 256 f32, beta: 256 f32; output: y: 32x256 f32
// device npu2, partition npu2: last_axis split, 32 rows in chunks of 1, 8 column(s) x 4 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 8192 x f32); 4: gamma_beta (gamma 256 | beta 256 x f32); 5: y (y 8192 x f32)
module {
  aie.device(npu2) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %shim_2_0 = aie.tile(2, 0)
    %shim_3_0 = aie.tile(3, 0)
    %shim_4_0 = aie.tile(4, 0)
    %shim_5_0 = aie.tile(5, 0)
    %shim_6_0 = aie.tile(6, 0)
    %shim_7_0 = aie.tile(7, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %mem_2_1 = aie.tile(2, 1)
    %mem_3_1 = aie.tile(3, 1)
    %mem_4_1 = aie.tile(4, 1)
    %mem_5_1 = aie.tile(5, 1)
    %mem_6_1 = aie.tile(6, 1)
    %mem_7_1 = aie.tile(7, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    %core_2_2 = aie.tile(2, 2)
    %core_3_2 = aie.tile(3, 2)
    %core_4_2 = aie.tile(4, 2)
    %core_5_2 = aie.tile(5, 2)
    %core_6_2 = aie.tile(6, 2)
    %core_7_2 = aie.tile(7, 2)
    %core_0_3 = aie.tile(0, 3)
    %core_1_3 = aie.tile(1, 3)
    %core_2_3 = aie.tile(2, 3)
    %core_3_3 = aie.tile(3, 3)
    %core_4_3 = aie.tile(4, 3)
    %core_5_3 = aie.tile(5, 3)
    %core_6_3 = aie.tile(6, 3)
    %core_7_3 = aie.tile(7, 3)
    %core_0_4 = aie.tile(0, 4)
    %core_1_4 = aie.tile(1, 4)
    %core_2_4 = aie.tile(2, 4)
    %core_3_4 = aie.tile(3, 4)
    %core_4_4 = aie.tile(4, 4)
    %core_5_4 = aie.tile(5, 4)
    %core_6_4 = aie.tile(6, 4)
    %core_7_4 = aie.tile(7, 4)
    %core_0_5 = aie.tile(0, 5)
    %core_1_5 = aie.tile(1, 5)
    %core_2_5 = aie.tile(2, 5)
    %core_3_5 = aie.tile(3, 5)
    %core_4_5 = aie.tile(4, 5)
    %core_5_5 = aie.tile(5, 5)
    %core_6_5 = aie.tile(6, 5)
    %core_7_5 = aie.tile(7, 5)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r2(%mem_0_1, {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r3(%mem_0_1, {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c0(%shim_0_0, {%core_0_2, %core_0_3, %core_0_4, %core_0_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_r2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_r3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r2(%mem_1_1, {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r3(%mem_1_1, {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c1(%shim_1_0, {%core_1_2, %core_1_3, %core_1_4, %core_1_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_r2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_r3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r2(%mem_2_1, {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r3(%mem_2_1, {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c2(%shim_2_0, {%core_2_2, %core_2_3, %core_2_4, %core_2_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_r2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_r3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r2(%mem_3_1, {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r3(%mem_3_1, {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c3(%shim_3_0, {%core_3_2, %core_3_3, %core_3_4, %core_3_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_r2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_r3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c4_r0(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c4_r1(%mem_4_1, {%core_4_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c4_r2(%mem_4_1, {%core_4_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c4_r3(%mem_4_1, {%core_4_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c4(%shim_4_0, {%core_4_2, %core_4_3, %core_4_4, %core_4_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c4_r0(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_r1(%core_4_3, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_r2(%core_4_4, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_r3(%core_4_5, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_shim(%mem_4_1, {%shim_4_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c5_r0(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c5_r1(%mem_5_1, {%core_5_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c5_r2(%mem_5_1, {%core_5_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c5_r3(%mem_5_1, {%core_5_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c5(%shim_5_0, {%core_5_2, %core_5_3, %core_5_4, %core_5_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c5_r0(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_r1(%core_5_3, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_r2(%core_5_4, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_r3(%core_5_5, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_shim(%mem_5_1, {%shim_5_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c6_r0(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c6_r1(%mem_6_1, {%core_6_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c6_r2(%mem_6_1, {%core_6_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c6_r3(%mem_6_1, {%core_6_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c6(%shim_6_0, {%core_6_2, %core_6_3, %core_6_4, %core_6_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c6_r0(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_r1(%core_6_3, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_r2(%core_6_4, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_r3(%core_6_5, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_shim(%mem_6_1, {%shim_6_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c7_r0(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c7_r1(%mem_7_1, {%core_7_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c7_r2(%mem_7_1, {%core_7_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c7_r3(%mem_7_1, {%core_7_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @gamma_beta_c7(%shim_7_0, {%core_7_2, %core_7_3, %core_7_4, %core_7_5}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c7_r0(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_r1(%core_7_3, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_r2(%core_7_4, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_r3(%core_7_5, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_shim(%mem_7_1, {%shim_7_0}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1, @x_c0_r2, @x_c0_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1, @y_c0_r2, @y_c0_r3] -> [@y_c0_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1_r0, @x_c1_r1, @x_c1_r2, @x_c1_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1, @y_c1_r2, @y_c1_r3] -> [@y_c1_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2_r0, @x_c2_r1, @x_c2_r2, @x_c2_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1, @y_c2_r2, @y_c2_r3] -> [@y_c2_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3_r0, @x_c3_r1, @x_c3_r2, @x_c3_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1, @y_c3_r2, @y_c3_r3] -> [@y_c3_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c4_shim] -> [@x_c4_r0, @x_c4_r1, @x_c4_r2, @x_c4_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c4_r0, @y_c4_r1, @y_c4_r2, @y_c4_r3] -> [@y_c4_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c5_shim] -> [@x_c5_r0, @x_c5_r1, @x_c5_r2, @x_c5_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c5_r0, @y_c5_r1, @y_c5_r2, @y_c5_r3] -> [@y_c5_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c6_shim] -> [@x_c6_r0, @x_c6_r1, @x_c6_r2, @x_c6_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c6_r0, @y_c6_r1, @y_c6_r2, @y_c6_r3] -> [@y_c6_shim] ([0, 256, 512, 768] [])
    aie.objectfifo.link [@x_c7_shim] -> [@x_c7_r0, @x_c7_r1, @x_c7_r2, @x_c7_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c7_r0, @y_c7_r1, @y_c7_r2, @y_c7_r3] -> [@y_c7_shim] ([0, 256, 512, 768] [])
    %gamma_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "gamma_c0_r0_local"} : memref<256xf32>
    %beta_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "beta_c0_r0_local"} : memref<256xf32>
    %gamma_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "gamma_c0_r1_local"} : memref<256xf32>
    %beta_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "beta_c0_r1_local"} : memref<256xf32>
    %gamma_c0_r2_local = aie.buffer(%core_0_4) {sym_name = "gamma_c0_r2_local"} : memref<256xf32>
    %beta_c0_r2_local = aie.buffer(%core_0_4) {sym_name = "beta_c0_r2_local"} : memref<256xf32>
    %gamma_c0_r3_local = aie.buffer(%core_0_5) {sym_name = "gamma_c0_r3_local"} : memref<256xf32>
    %beta_c0_r3_local = aie.buffer(%core_0_5) {sym_name = "beta_c0_r3_local"} : memref<256xf32>
    %gamma_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "gamma_c1_r0_local"} : memref<256xf32>
    %beta_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "beta_c1_r0_local"} : memref<256xf32>
    %gamma_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "gamma_c1_r1_local"} : memref<256xf32>
    %beta_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "beta_c1_r1_local"} : memref<256xf32>
    %gamma_c1_r2_local = aie.buffer(%core_1_4) {sym_name = "gamma_c1_r2_local"} : memref<256xf32>
    %beta_c1_r2_local = aie.buffer(%core_1_4) {sym_name = "beta_c1_r2_local"} : memref<256xf32>
    %gamma_c1_r3_local = aie.buffer(%core_1_5) {sym_name = "gamma_c1_r3_local"} : memref<256xf32>
    %beta_c1_r3_local = aie.buffer(%core_1_5) {sym_name = "beta_c1_r3_local"} : memref<256xf32>
    %gamma_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "gamma_c2_r0_local"} : memref<256xf32>
    %beta_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "beta_c2_r0_local"} : memref<256xf32>
    %gamma_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "gamma_c2_r1_local"} : memref<256xf32>
    %beta_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "beta_c2_r1_local"} : memref<256xf32>
    %gamma_c2_r2_local = aie.buffer(%core_2_4) {sym_name = "gamma_c2_r2_local"} : memref<256xf32>
    %beta_c2_r2_local = aie.buffer(%core_2_4) {sym_name = "beta_c2_r2_local"} : memref<256xf32>
    %gamma_c2_r3_local = aie.buffer(%core_2_5) {sym_name = "gamma_c2_r3_local"} : memref<256xf32>
    %beta_c2_r3_local = aie.buffer(%core_2_5) {sym_name = "beta_c2_r3_local"} : memref<256xf32>
    %gamma_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "gamma_c3_r0_local"} : memref<256xf32>
    %beta_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "beta_c3_r0_local"} : memref<256xf32>
    %gamma_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "gamma_c3_r1_local"} : memref<256xf32>
    %beta_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "beta_c3_r1_local"} : memref<256xf32>
    %gamma_c3_r2_local = aie.buffer(%core_3_4) {sym_name = "gamma_c3_r2_local"} : memref<256xf32>
    %beta_c3_r2_local = aie.buffer(%core_3_4) {sym_name = "beta_c3_r2_local"} : memref<256xf32>
    %gamma_c3_r3_local = aie.buffer(%core_3_5) {sym_name = "gamma_c3_r3_local"} : memref<256xf32>
    %beta_c3_r3_local = aie.buffer(%core_3_5) {sym_name = "beta_c3_r3_local"} : memref<256xf32>
    %gamma_c4_r0_local = aie.buffer(%core_4_2) {sym_name = "gamma_c4_r0_local"} : memref<256xf32>
    %beta_c4_r0_local = aie.buffer(%core_4_2) {sym_name = "beta_c4_r0_local"} : memref<256xf32>
    %gamma_c4_r1_local = aie.buffer(%core_4_3) {sym_name = "gamma_c4_r1_local"} : memref<256xf32>
    %beta_c4_r1_local = aie.buffer(%core_4_3) {sym_name = "beta_c4_r1_local"} : memref<256xf32>
    %gamma_c4_r2_local = aie.buffer(%core_4_4) {sym_name = "gamma_c4_r2_local"} : memref<256xf32>
    %beta_c4_r2_local = aie.buffer(%core_4_4) {sym_name = "beta_c4_r2_local"} : memref<256xf32>
    %gamma_c4_r3_local = aie.buffer(%core_4_5) {sym_name = "gamma_c4_r3_local"} : memref<256xf32>
    %beta_c4_r3_local = aie.buffer(%core_4_5) {sym_name = "beta_c4_r3_local"} : memref<256xf32>
    %gamma_c5_r0_local = aie.buffer(%core_5_2) {sym_name = "gamma_c5_r0_local"} : memref<256xf32>
    %beta_c5_r0_local = aie.buffer(%core_5_2) {sym_name = "beta_c5_r0_local"} : memref<256xf32>
    %gamma_c5_r1_local = aie.buffer(%core_5_3) {sym_name = "gamma_c5_r1_local"} : memref<256xf32>
    %beta_c5_r1_local = aie.buffer(%core_5_3) {sym_name = "beta_c5_r1_local"} : memref<256xf32>
    %gamma_c5_r2_local = aie.buffer(%core_5_4) {sym_name = "gamma_c5_r2_local"} : memref<256xf32>
    %beta_c5_r2_local = aie.buffer(%core_5_4) {sym_name = "beta_c5_r2_local"} : memref<256xf32>
    %gamma_c5_r3_local = aie.buffer(%core_5_5) {sym_name = "gamma_c5_r3_local"} : memref<256xf32>
    %beta_c5_r3_local = aie.buffer(%core_5_5) {sym_name = "beta_c5_r3_local"} : memref<256xf32>
    %gamma_c6_r0_local = aie.buffer(%core_6_2) {sym_name = "gamma_c6_r0_local"} : memref<256xf32>
    %beta_c6_r0_local = aie.buffer(%core_6_2) {sym_name = "beta_c6_r0_local"} : memref<256xf32>
    %gamma_c6_r1_local = aie.buffer(%core_6_3) {sym_name = "gamma_c6_r1_local"} : memref<256xf32>
    %beta_c6_r1_local = aie.buffer(%core_6_3) {sym_name = "beta_c6_r1_local"} : memref<256xf32>
    %gamma_c6_r2_local = aie.buffer(%core_6_4) {sym_name = "gamma_c6_r2_local"} : memref<256xf32>
    %beta_c6_r2_local = aie.buffer(%core_6_4) {sym_name = "beta_c6_r2_local"} : memref<256xf32>
    %gamma_c6_r3_local = aie.buffer(%core_6_5) {sym_name = "gamma_c6_r3_local"} : memref<256xf32>
    %beta_c6_r3_local = aie.buffer(%core_6_5) {sym_name = "beta_c6_r3_local"} : memref<256xf32>
    %gamma_c7_r0_local = aie.buffer(%core_7_2) {sym_name = "gamma_c7_r0_local"} : memref<256xf32>
    %beta_c7_r0_local = aie.buffer(%core_7_2) {sym_name = "beta_c7_r0_local"} : memref<256xf32>
    %gamma_c7_r1_local = aie.buffer(%core_7_3) {sym_name = "gamma_c7_r1_local"} : memref<256xf32>
    %beta_c7_r1_local = aie.buffer(%core_7_3) {sym_name = "beta_c7_r1_local"} : memref<256xf32>
    %gamma_c7_r2_local = aie.buffer(%core_7_4) {sym_name = "gamma_c7_r2_local"} : memref<256xf32>
    %beta_c7_r2_local = aie.buffer(%core_7_4) {sym_name = "beta_c7_r2_local"} : memref<256xf32>
    %gamma_c7_r3_local = aie.buffer(%core_7_5) {sym_name = "gamma_c7_r3_local"} : memref<256xf32>
    %beta_c7_r3_local = aie.buffer(%core_7_5) {sym_name = "beta_c7_r3_local"} : memref<256xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<1x256xf32>, %in_gamma: memref<256xf32>, %in_beta: memref<256xf32>, %out_y: memref<1x256xf32>) {
      %vc0 = arith.constant dense<0.0> : vector<16xf32>
      %cst1_f32 = arith.constant 256.0 : f32
      %cst2_f32 = arith.constant 1.0e-05 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %cst7_f32 = arith.constant 0.0 : f32
      %cst8_f32 = arith.constant 1.0 : f32
      %cst9_f32 = arith.constant 1.1754943508222875e-38 : f32
      %cst10_f32 = arith.constant 16777216.0 : f32
      %cm12_i32 = arith.constant -12 : i32
      %c0_i32 = arith.constant 0 : i32
      %c23_i32 = arith.constant 23 : i32
      %c127_i32 = arith.constant 127 : i32
      %c1_i32 = arith.constant 1 : i32
      %c8388607_i32 = arith.constant 8388607 : i32
      %c1597463007_i32 = arith.constant 1597463007 : i32
      %cst18_f32 = arith.constant 0.5 : f32
      %cst19_f32 = arith.constant 1.5 : f32
      %cst20_f32 = arith.constant 4097.0 : f32
      %cst21_f32 = arith.constant 1.1920928955078125e-07 : f32
      %cm2147483648_i32 = arith.constant -2147483648 : i32
      %cst23_f32 = arith.constant 0x7F800000 : f32
      %cst24_f32 = arith.constant 0x7FC00000 : f32
      scf.for %i0 = %c0 to %c1 step %c1 {
        %v0 = scf.for %i1 = %c0 to %c256 step %c16 iter_args(%v1 = %vc0) -> (vector<16xf32>) {
          %v2 = vector.transfer_read %in_x[%i0, %i1], %cst7_f32 {in_bounds = [true]} : memref<1x256xf32>, vector<16xf32>
          %v3 = arith.addf %v1, %v2 : vector<16xf32>
          scf.yield %v3 : vector<16xf32>
        }
        %v4 = vector.reduction <add>, %v0 : vector<16xf32> into f32
        %v5 = arith.divf %v4, %cst1_f32 : f32
        %v6 = vector.broadcast %v5 : f32 to vector<16xf32>
        %v7 = scf.for %i2 = %c0 to %c256 step %c16 iter_args(%v8 = %vc0) -> (vector<16xf32>) {
          %v9 = vector.transfer_read %in_x[%i0, %i2], %cst7_f32 {in_bounds = [true]} : memref<1x256xf32>, vector<16xf32>
          %v10 = arith.subf %v9, %v6 : vector<16xf32>
          %v11 = arith.mulf %v10, %v10 : vector<16xf32>
          %v12 = arith.addf %v8, %v11 : vector<16xf32>
          scf.yield %v12 : vector<16xf32>
        }
        %v13 = vector.reduction <add>, %v7 : vector<16xf32> into f32
        %v14 = arith.divf %v13, %cst1_f32 : f32
        %v15 = arith.addf %v14, %cst2_f32 : f32
        %v16 = arith.cmpf olt, %v15, %cst9_f32 : f32
        %v17 = arith.mulf %v15, %cst10_f32 : f32
        %v18 = arith.select %v16, %v17, %v15 : f32
        %v19 = arith.select %v16, %cm12_i32, %c0_i32 : i32
        %v20 = arith.bitcast %v18 : f32 to i32
        %v21 = arith.shrui %v20, %c23_i32 : i32
        %v22 = arith.subi %v21, %c127_i32 : i32
        %v23 = arith.shrsi %v22, %c1_i32 : i32
        %v24 = arith.shli %v23, %c1_i32 : i32
        %v25 = arith.subi %v22, %v24 : i32
        %v26 = arith.addi %v25, %c127_i32 : i32
        %v27 = arith.andi %v20, %c8388607_i32 : i32
        %v28 = arith.shli %v26, %c23_i32 : i32
        %v29 = arith.ori %v27, %v28 : i32
        %v30 = arith.bitcast %v29 : i32 to f32
        %v31 = arith.shrui %v29, %c1_i32 : i32
        %v32 = arith.subi %c1597463007_i32, %v31 : i32
        %v33 = arith.bitcast %v32 : i32 to f32
        %v34 = arith.mulf %v30, %cst18_f32 : f32
        %v35 = arith.mulf %v33, %v33 : f32
        %v36 = arith.mulf %v34, %v35 : f32
        %v37 = arith.subf %cst19_f32, %v36 : f32
        %v38 = arith.mulf %v33, %v37 : f32
        %v39 = arith.mulf %v38, %v38 : f32
        %v40 = arith.mulf %v34, %v39 : f32
        %v41 = arith.subf %cst19_f32, %v40 : f32
        %v42 = arith.mulf %v38, %v41 : f32
        %v43 = arith.mulf %v42, %v42 : f32
        %v44 = arith.mulf %v34, %v43 : f32
        %v45 = arith.subf %cst19_f32, %v44 : f32
        %v46 = arith.mulf %v42, %v45 : f32
        %v47 = arith.mulf %v30, %v46 : f32
        %v48 = arith.mulf %v47, %v47 : f32
        %v49 = arith.mulf %v47, %cst20_f32 : f32
        %v50 = arith.subf %v49, %v47 : f32
        %v51 = arith.subf %v49, %v50 : f32
        %v52 = arith.subf %v47, %v51 : f32
        %v53 = arith.mulf %v47, %cst20_f32 : f32
        %v54 = arith.subf %v53, %v47 : f32
        %v55 = arith.subf %v53, %v54 : f32
        %v56 = arith.subf %v47, %v55 : f32
        %v57 = arith.mulf %v51, %v55 : f32
        %v58 = arith.subf %v57, %v48 : f32
        %v59 = arith.mulf %v51, %v56 : f32
        %v60 = arith.addf %v58, %v59 : f32
        %v61 = arith.mulf %v52, %v55 : f32
        %v62 = arith.addf %v60, %v61 : f32
        %v63 = arith.mulf %v52, %v56 : f32
        %v64 = arith.addf %v62, %v63 : f32
        %v65 = arith.subf %v30, %v48 : f32
        %v66 = arith.subf %v65, %v64 : f32
        %v67 = arith.mulf %v46, %cst18_f32 : f32
        %v68 = arith.mulf %v66, %v67 : f32
        %v69 = arith.addf %v47, %v68 : f32
        %v70 = arith.mulf %v69, %v69 : f32
        %v71 = arith.mulf %v69, %cst20_f32 : f32
        %v72 = arith.subf %v71, %v69 : f32
        %v73 = arith.subf %v71, %v72 : f32
        %v74 = arith.subf %v69, %v73 : f32
        %v75 = arith.mulf %v69, %cst20_f32 : f32
        %v76 = arith.subf %v75, %v69 : f32
        %v77 = arith.subf %v75, %v76 : f32
        %v78 = arith.subf %v69, %v77 : f32
        %v79 = arith.mulf %v73, %v77 : f32
        %v80 = arith.subf %v79, %v70 : f32
        %v81 = arith.mulf %v73, %v78 : f32
        %v82 = arith.addf %v80, %v81 : f32
        %v83 = arith.mulf %v74, %v77 : f32
        %v84 = arith.addf %v82, %v83 : f32
        %v85 = arith.mulf %v74, %v78 : f32
        %v86 = arith.addf %v84, %v85 : f32
        %v87 = arith.subf %v30, %v70 : f32
        %v88 = arith.subf %v87, %v86 : f32
        %v89 = arith.mulf %v69, %cst21_f32 : f32
        %v90 = arith.cmpf ogt, %v88, %v89 : f32
        %v91 = arith.addf %v69, %cst21_f32 : f32
        %v92 = arith.bitcast %v89 : f32 to i32
        %v93 = arith.xori %v92, %cm2147483648_i32 : i32
        %v94 = arith.bitcast %v93 : i32 to f32
        %v95 = arith.cmpf ole, %v88, %v94 : f32
        %v96 = arith.subf %v69, %cst21_f32 : f32
        %v97 = arith.select %v95, %v96, %v69 : f32
        %v98 = arith.select %v90, %v91, %v97 : f32
        %v99 = arith.addi %v23, %v19 : i32
        %v100 = arith.addi %v99, %c127_i32 : i32
        %v101 = arith.shli %v100, %c23_i32 : i32
        %v102 = arith.bitcast %v101 : i32 to f32
        %v103 = arith.mulf %v98, %v102 : f32
        %v104 = arith.cmpf oeq, %v15, %cst23_f32 : f32
        %v105 = arith.select %v104, %cst23_f32, %v103 : f32
        %v106 = arith.cmpf oeq, %v15, %cst7_f32 : f32
        %v107 = arith.select %v106, %v15, %v105 : f32
        %v108 = arith.cmpf ult, %v15, %cst7_f32 : f32
        %v109 = arith.select %v108, %cst24_f32, %v107 : f32
        %v110 = arith.divf %cst8_f32, %v109 : f32
        %v111 = vector.broadcast %v110 : f32 to vector<16xf32>
        scf.for %i3 = %c0 to %c256 step %c16 {
          %v112 = vector.transfer_read %in_x[%i0, %i3], %cst7_f32 {in_bounds = [true]} : memref<1x256xf32>, vector<16xf32>
          %v113 = arith.subf %v112, %v6 : vector<16xf32>
          %v114 = arith.mulf %v113, %v111 : vector<16xf32>
          %v115 = vector.transfer_read %in_gamma[%i3], %cst7_f32 {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          %v116 = arith.mulf %v114, %v115 : vector<16xf32>
          %v117 = vector.transfer_read %in_beta[%i3], %cst7_f32 {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          %v118 = arith.addf %v116, %v117 : vector<16xf32>
          vector.transfer_write %v118, %out_y[%i0, %i3] {in_bounds = [true]} : vector<16xf32>, memref<1x256xf32>
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c0_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c0_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c0_r0_local, %beta_c0_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c0(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c0_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c0_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c0_r1_local, %beta_c0_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c0(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_4 = aie.core(%core_0_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c0_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c0_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c0_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c0_r2_local, %beta_c0_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c0_r2(Consume, 1)
        aie.objectfifo.release @y_c0_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c0(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_5 = aie.core(%core_0_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c0_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c0_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c0_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c0_r3_local, %beta_c0_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c0_r3(Consume, 1)
        aie.objectfifo.release @y_c0_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c0(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c1_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c1_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c1_r0_local, %beta_c1_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c1(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c1_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c1_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c1_r1_local, %beta_c1_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c1(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_4 = aie.core(%core_1_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c1_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c1_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c1_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c1_r2_local, %beta_c1_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c1_r2(Consume, 1)
        aie.objectfifo.release @y_c1_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c1(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_5 = aie.core(%core_1_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c1_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c1_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c1_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c1_r3_local, %beta_c1_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c1_r3(Consume, 1)
        aie.objectfifo.release @y_c1_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c1(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c2_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c2_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c2_r0_local, %beta_c2_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c2(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c2_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c2_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c2_r1_local, %beta_c2_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c2(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_4 = aie.core(%core_2_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c2_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c2_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c2_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c2_r2_local, %beta_c2_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c2_r2(Consume, 1)
        aie.objectfifo.release @y_c2_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c2(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_5 = aie.core(%core_2_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c2_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c2_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c2_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c2_r3_local, %beta_c2_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c2_r3(Consume, 1)
        aie.objectfifo.release @y_c2_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c2(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c3_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c3_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c3_r0_local, %beta_c3_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c3(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c3_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c3_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c3_r1_local, %beta_c3_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c3(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_4 = aie.core(%core_3_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c3_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c3_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c3_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c3_r2_local, %beta_c3_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c3_r2(Consume, 1)
        aie.objectfifo.release @y_c3_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c3(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_5 = aie.core(%core_3_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c3_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c3_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c3_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c3_r3_local, %beta_c3_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c3_r3(Consume, 1)
        aie.objectfifo.release @y_c3_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c3(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c4(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c4_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c4_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c4_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c4_r0_local, %beta_c4_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c4_r0(Consume, 1)
        aie.objectfifo.release @y_c4_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c4(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_3 = aie.core(%core_4_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c4(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c4_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c4_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c4_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c4_r1_local, %beta_c4_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c4_r1(Consume, 1)
        aie.objectfifo.release @y_c4_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c4(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_4 = aie.core(%core_4_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c4(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c4_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c4_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c4_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c4_r2_local, %beta_c4_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c4_r2(Consume, 1)
        aie.objectfifo.release @y_c4_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c4(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_5 = aie.core(%core_4_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c4(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c4_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c4_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c4_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c4_r3_local, %beta_c4_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c4_r3(Consume, 1)
        aie.objectfifo.release @y_c4_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c4(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c5(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c5_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c5_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c5_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c5_r0_local, %beta_c5_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c5_r0(Consume, 1)
        aie.objectfifo.release @y_c5_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c5(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_3 = aie.core(%core_5_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c5(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c5_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c5_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c5_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c5_r1_local, %beta_c5_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c5_r1(Consume, 1)
        aie.objectfifo.release @y_c5_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c5(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_4 = aie.core(%core_5_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c5(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c5_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c5_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c5_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c5_r2_local, %beta_c5_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c5_r2(Consume, 1)
        aie.objectfifo.release @y_c5_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c5(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_5 = aie.core(%core_5_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c5(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c5_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c5_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c5_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c5_r3_local, %beta_c5_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c5_r3(Consume, 1)
        aie.objectfifo.release @y_c5_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c5(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c6(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c6_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c6_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c6_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c6_r0_local, %beta_c6_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c6_r0(Consume, 1)
        aie.objectfifo.release @y_c6_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c6(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_3 = aie.core(%core_6_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c6(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c6_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c6_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c6_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c6_r1_local, %beta_c6_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c6_r1(Consume, 1)
        aie.objectfifo.release @y_c6_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c6(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_4 = aie.core(%core_6_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c6(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c6_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c6_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c6_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c6_r2_local, %beta_c6_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c6_r2(Consume, 1)
        aie.objectfifo.release @y_c6_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c6(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_5 = aie.core(%core_6_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c6(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c6_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c6_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c6_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c6_r3_local, %beta_c6_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c6_r3(Consume, 1)
        aie.objectfifo.release @y_c6_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c6(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c7(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c7_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c7_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c7_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c7_r0_local, %beta_c7_r0_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c7_r0(Consume, 1)
        aie.objectfifo.release @y_c7_r0(Produce, 1)
        aie.objectfifo.release @gamma_beta_c7(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_3 = aie.core(%core_7_3) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c7(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c7_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c7_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c7_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c7_r1_local, %beta_c7_r1_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c7_r1(Consume, 1)
        aie.objectfifo.release @y_c7_r1(Produce, 1)
        aie.objectfifo.release @gamma_beta_c7(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_4 = aie.core(%core_7_4) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c7(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c7_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c7_r2_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c7_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r2(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c7_r2_local, %beta_c7_r2_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c7_r2(Consume, 1)
        aie.objectfifo.release @y_c7_r2(Produce, 1)
        aie.objectfifo.release @gamma_beta_c7(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_5 = aie.core(%core_7_5) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @gamma_beta_c7(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c256 step %c16 {
          %u1_a0 = arith.addi %c0, %u1_i0 : index
          %u1_v = vector.transfer_read %p0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %gamma_c7_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c256 step %c16 {
          %u2_a0 = arith.addi %c256, %u2_i0 : index
          %u2_v = vector.transfer_read %p0[%u2_a0], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
          vector.transfer_write %u2_v, %beta_c7_r3_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
        }
        %s0_sv = aie.objectfifo.acquire @x_c7_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r3(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %gamma_c7_r3_local, %beta_c7_r3_local, %o) : (memref<1x256xf32>, memref<256xf32>, memref<256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c7_r3(Consume, 1)
        aie.objectfifo.release @y_c7_r3(Produce, 1)
        aie.objectfifo.release @gamma_beta_c7(Consume, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<8192xf32>, %gamma_beta: memref<512xf32>, %y: memref<8192xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c0} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c1} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2048][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c2} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2048][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c2_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 3072][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c3} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 3072][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c3_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 4096][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c4_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c4} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 4096][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c4_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 5120][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c5_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c5} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 5120][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c5_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 6144][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c6_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c6} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 6144][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c6_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 7168][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c7_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%gamma_beta[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @gamma_beta_c7} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 7168][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c7_shim} : memref<8192xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
      aiex.npu.dma_wait {symbol = @y_c4_shim}
      aiex.npu.dma_wait {symbol = @y_c5_shim}
      aiex.npu.dma_wait {symbol = @y_c6_shim}
      aiex.npu.dma_wait {symbol = @y_c7_shim}
    }
  }
}
