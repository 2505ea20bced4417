// npubuild xdna kernel add_f32_4096_4096
// op: add, dtype: f32, attrs: {}
// inputs: a: 4096 f32, b: 4096 f32; output: y: 4096 f32
// device npu2, partition npu2: flat split, 4096 rows in chunks of 128, 8 column(s) x 4 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: a_b (a 4096 | b 4096 x f32); 4: y (y 4096 x f32)
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
    aie.objectfifo @a_b_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c0_r2(%mem_0_1, {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c0_r3(%mem_0_1, {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c0_r2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c0_r3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c1_r2(%mem_1_1, {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c1_r3(%mem_1_1, {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c1_r2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c1_r3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c2_r2(%mem_2_1, {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c2_r3(%mem_2_1, {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c2_r2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c2_r3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c3_r2(%mem_3_1, {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c3_r3(%mem_3_1, {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c3_r2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c3_r3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c4_r0(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c4_r1(%mem_4_1, {%core_4_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c4_r2(%mem_4_1, {%core_4_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c4_r3(%mem_4_1, {%core_4_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c4_r0(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c4_r1(%core_4_3, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c4_r2(%core_4_4, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c4_r3(%core_4_5, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c4_shim(%mem_4_1, {%shim_4_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c5_r0(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c5_r1(%mem_5_1, {%core_5_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c5_r2(%mem_5_1, {%core_5_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c5_r3(%mem_5_1, {%core_5_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c5_r0(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c5_r1(%core_5_3, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c5_r2(%core_5_4, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c5_r3(%core_5_5, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c5_shim(%mem_5_1, {%shim_5_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c6_r0(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c6_r1(%mem_6_1, {%core_6_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c6_r2(%mem_6_1, {%core_6_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c6_r3(%mem_6_1, {%core_6_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c6_r0(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c6_r1(%core_6_3, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c6_r2(%core_6_4, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c6_r3(%core_6_5, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c6_shim(%mem_6_1, {%shim_6_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_b_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c7_r0(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c7_r1(%mem_7_1, {%core_7_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c7_r2(%mem_7_1, {%core_7_4}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c7_r3(%mem_7_1, {%core_7_5}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c7_r0(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c7_r1(%core_7_3, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c7_r2(%core_7_4, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c7_r3(%core_7_5, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @y_c7_shim(%mem_7_1, {%shim_7_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo.link [@a_b_c0_shim] -> [@a_b_c0_r0, @a_b_c0_r1, @a_b_c0_r2, @a_b_c0_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1, @y_c0_r2, @y_c0_r3] -> [@y_c0_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c1_shim] -> [@a_b_c1_r0, @a_b_c1_r1, @a_b_c1_r2, @a_b_c1_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1, @y_c1_r2, @y_c1_r3] -> [@y_c1_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c2_shim] -> [@a_b_c2_r0, @a_b_c2_r1, @a_b_c2_r2, @a_b_c2_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1, @y_c2_r2, @y_c2_r3] -> [@y_c2_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c3_shim] -> [@a_b_c3_r0, @a_b_c3_r1, @a_b_c3_r2, @a_b_c3_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1, @y_c3_r2, @y_c3_r3] -> [@y_c3_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c4_shim] -> [@a_b_c4_r0, @a_b_c4_r1, @a_b_c4_r2, @a_b_c4_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c4_r0, @y_c4_r1, @y_c4_r2, @y_c4_r3] -> [@y_c4_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c5_shim] -> [@a_b_c5_r0, @a_b_c5_r1, @a_b_c5_r2, @a_b_c5_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c5_r0, @y_c5_r1, @y_c5_r2, @y_c5_r3] -> [@y_c5_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c6_shim] -> [@a_b_c6_r0, @a_b_c6_r1, @a_b_c6_r2, @a_b_c6_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c6_r0, @y_c6_r1, @y_c6_r2, @y_c6_r3] -> [@y_c6_shim] ([0, 128, 256, 384] [])
    aie.objectfifo.link [@a_b_c7_shim] -> [@a_b_c7_r0, @a_b_c7_r1, @a_b_c7_r2, @a_b_c7_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c7_r0, @y_c7_r1, @y_c7_r2, @y_c7_r3] -> [@y_c7_shim] ([0, 128, 256, 384] [])
    %a_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "a_c0_r0_local"} : memref<128xf32>
    %b_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "b_c0_r0_local"} : memref<128xf32>
    %a_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "a_c0_r1_local"} : memref<128xf32>
    %b_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "b_c0_r1_local"} : memref<128xf32>
    %a_c0_r2_local = aie.buffer(%core_0_4) {sym_name = "a_c0_r2_local"} : memref<128xf32>
    %b_c0_r2_local = aie.buffer(%core_0_4) {sym_name = "b_c0_r2_local"} : memref<128xf32>
    %a_c0_r3_local = aie.buffer(%core_0_5) {sym_name = "a_c0_r3_local"} : memref<128xf32>
    %b_c0_r3_local = aie.buffer(%core_0_5) {sym_name = "b_c0_r3_local"} : memref<128xf32>
    %a_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "a_c1_r0_local"} : memref<128xf32>
    %b_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "b_c1_r0_local"} : memref<128xf32>
    %a_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "a_c1_r1_local"} : memref<128xf32>
    %b_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "b_c1_r1_local"} : memref<128xf32>
    %a_c1_r2_local = aie.buffer(%core_1_4) {sym_name = "a_c1_r2_local"} : memref<128xf32>
    %b_c1_r2_local = aie.buffer(%core_1_4) {sym_name = "b_c1_r2_local"} : memref<128xf32>
    %a_c1_r3_local = aie.buffer(%core_1_5) {sym_name = "a_c1_r3_local"} : memref<128xf32>
    %b_c1_r3_local = aie.buffer(%core_1_5) {sym_name = "b_c1_r3_local"} : memref<128xf32>
    %a_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "a_c2_r0_local"} : memref<128xf32>
    %b_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "b_c2_r0_local"} : memref<128xf32>
    %a_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "a_c2_r1_local"} : memref<128xf32>
    %b_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "b_c2_r1_local"} : memref<128xf32>
    %a_c2_r2_local = aie.buffer(%core_2_4) {sym_name = "a_c2_r2_local"} : memref<128xf32>
    %b_c2_r2_local = aie.buffer(%core_2_4) {sym_name = "b_c2_r2_local"} : memref<128xf32>
    %a_c2_r3_local = aie.buffer(%core_2_5) {sym_name = "a_c2_r3_local"} : memref<128xf32>
    %b_c2_r3_local = aie.buffer(%core_2_5) {sym_name = "b_c2_r3_local"} : memref<128xf32>
    %a_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "a_c3_r0_local"} : memref<128xf32>
    %b_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "b_c3_r0_local"} : memref<128xf32>
    %a_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "a_c3_r1_local"} : memref<128xf32>
    %b_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "b_c3_r1_local"} : memref<128xf32>
    %a_c3_r2_local = aie.buffer(%core_3_4) {sym_name = "a_c3_r2_local"} : memref<128xf32>
    %b_c3_r2_local = aie.buffer(%core_3_4) {sym_name = "b_c3_r2_local"} : memref<128xf32>
    %a_c3_r3_local = aie.buffer(%core_3_5) {sym_name = "a_c3_r3_local"} : memref<128xf32>
    %b_c3_r3_local = aie.buffer(%core_3_5) {sym_name = "b_c3_r3_local"} : memref<128xf32>
    %a_c4_r0_local = aie.buffer(%core_4_2) {sym_name = "a_c4_r0_local"} : memref<128xf32>
    %b_c4_r0_local = aie.buffer(%core_4_2) {sym_name = "b_c4_r0_local"} : memref<128xf32>
    %a_c4_r1_local = aie.buffer(%core_4_3) {sym_name = "a_c4_r1_local"} : memref<128xf32>
    %b_c4_r1_local = aie.buffer(%core_4_3) {sym_name = "b_c4_r1_local"} : memref<128xf32>
    %a_c4_r2_local = aie.buffer(%core_4_4) {sym_name = "a_c4_r2_local"} : memref<128xf32>
    %b_c4_r2_local = aie.buffer(%core_4_4) {sym_name = "b_c4_r2_local"} : memref<128xf32>
    %a_c4_r3_local = aie.buffer(%core_4_5) {sym_name = "a_c4_r3_local"} : memref<128xf32>
    %b_c4_r3_local = aie.buffer(%core_4_5) {sym_name = "b_c4_r3_local"} : memref<128xf32>
    %a_c5_r0_local = aie.buffer(%core_5_2) {sym_name = "a_c5_r0_local"} : memref<128xf32>
    %b_c5_r0_local = aie.buffer(%core_5_2) {sym_name = "b_c5_r0_local"} : memref<128xf32>
    %a_c5_r1_local = aie.buffer(%core_5_3) {sym_name = "a_c5_r1_local"} : memref<128xf32>
    %b_c5_r1_local = aie.buffer(%core_5_3) {sym_name = "b_c5_r1_local"} : memref<128xf32>
    %a_c5_r2_local = aie.buffer(%core_5_4) {sym_name = "a_c5_r2_local"} : memref<128xf32>
    %b_c5_r2_local = aie.buffer(%core_5_4) {sym_name = "b_c5_r2_local"} : memref<128xf32>
    %a_c5_r3_local = aie.buffer(%core_5_5) {sym_name = "a_c5_r3_local"} : memref<128xf32>
    %b_c5_r3_local = aie.buffer(%core_5_5) {sym_name = "b_c5_r3_local"} : memref<128xf32>
    %a_c6_r0_local = aie.buffer(%core_6_2) {sym_name = "a_c6_r0_local"} : memref<128xf32>
    %b_c6_r0_local = aie.buffer(%core_6_2) {sym_name = "b_c6_r0_local"} : memref<128xf32>
    %a_c6_r1_local = aie.buffer(%core_6_3) {sym_name = "a_c6_r1_local"} : memref<128xf32>
    %b_c6_r1_local = aie.buffer(%core_6_3) {sym_name = "b_c6_r1_local"} : memref<128xf32>
    %a_c6_r2_local = aie.buffer(%core_6_4) {sym_name = "a_c6_r2_local"} : memref<128xf32>
    %b_c6_r2_local = aie.buffer(%core_6_4) {sym_name = "b_c6_r2_local"} : memref<128xf32>
    %a_c6_r3_local = aie.buffer(%core_6_5) {sym_name = "a_c6_r3_local"} : memref<128xf32>
    %b_c6_r3_local = aie.buffer(%core_6_5) {sym_name = "b_c6_r3_local"} : memref<128xf32>
    %a_c7_r0_local = aie.buffer(%core_7_2) {sym_name = "a_c7_r0_local"} : memref<128xf32>
    %b_c7_r0_local = aie.buffer(%core_7_2) {sym_name = "b_c7_r0_local"} : memref<128xf32>
    %a_c7_r1_local = aie.buffer(%core_7_3) {sym_name = "a_c7_r1_local"} : memref<128xf32>
    %b_c7_r1_local = aie.buffer(%core_7_3) {sym_name = "b_c7_r1_local"} : memref<128xf32>
    %a_c7_r2_local = aie.buffer(%core_7_4) {sym_name = "a_c7_r2_local"} : memref<128xf32>
    %b_c7_r2_local = aie.buffer(%core_7_4) {sym_name = "b_c7_r2_local"} : memref<128xf32>
    %a_c7_r3_local = aie.buffer(%core_7_5) {sym_name = "a_c7_r3_local"} : memref<128xf32>
    %b_c7_r3_local = aie.buffer(%core_7_5) {sym_name = "b_c7_r3_local"} : memref<128xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_a: memref<128xf32>, %in_b: memref<128xf32>, %out_y: memref<128xf32>) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %cst3_f32 = arith.constant 0.0 : f32
      scf.for %i0 = %c0 to %c128 step %c16 {
        %v0 = vector.transfer_read %in_a[%i0], %cst3_f32 {in_bounds = [true]} : memref<128xf32>, vector<16xf32>
        %v1 = vector.transfer_read %in_b[%i0], %cst3_f32 {in_bounds = [true]} : memref<128xf32>, vector<16xf32>
        %v2 = arith.addf %v0, %v1 : vector<16xf32>
        vector.transfer_write %v2, %out_y[%i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c0_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c0_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c0_r0_local, %b_c0_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c0_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c0_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c0_r1_local, %b_c0_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_4 = aie.core(%core_0_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c0_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c0_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c0_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c0_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c0_r2_local, %b_c0_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c0_r2(Consume, 1)
        aie.objectfifo.release @y_c0_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_5 = aie.core(%core_0_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c0_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c0_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c0_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c0_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c0_r3_local, %b_c0_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c0_r3(Consume, 1)
        aie.objectfifo.release @y_c0_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c1_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c1_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c1_r0_local, %b_c1_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c1_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c1_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c1_r1_local, %b_c1_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_4 = aie.core(%core_1_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c1_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c1_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c1_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c1_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c1_r2_local, %b_c1_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c1_r2(Consume, 1)
        aie.objectfifo.release @y_c1_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_5 = aie.core(%core_1_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c1_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c1_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c1_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c1_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c1_r3_local, %b_c1_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c1_r3(Consume, 1)
        aie.objectfifo.release @y_c1_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c2_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c2_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c2_r0_local, %b_c2_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c2_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c2_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c2_r1_local, %b_c2_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_4 = aie.core(%core_2_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c2_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c2_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c2_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c2_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c2_r2_local, %b_c2_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c2_r2(Consume, 1)
        aie.objectfifo.release @y_c2_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_5 = aie.core(%core_2_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c2_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c2_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c2_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c2_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c2_r3_local, %b_c2_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c2_r3(Consume, 1)
        aie.objectfifo.release @y_c2_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c3_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c3_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c3_r0_local, %b_c3_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c3_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c3_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c3_r1_local, %b_c3_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_4 = aie.core(%core_3_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c3_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c3_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c3_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c3_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c3_r2_local, %b_c3_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c3_r2(Consume, 1)
        aie.objectfifo.release @y_c3_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_5 = aie.core(%core_3_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c3_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c3_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c3_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c3_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c3_r3_local, %b_c3_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c3_r3(Consume, 1)
        aie.objectfifo.release @y_c3_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c4_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c4_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c4_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c4_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c4_r0_local, %b_c4_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c4_r0(Consume, 1)
        aie.objectfifo.release @y_c4_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_3 = aie.core(%core_4_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c4_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c4_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c4_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c4_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c4_r1_local, %b_c4_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c4_r1(Consume, 1)
        aie.objectfifo.release @y_c4_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_4 = aie.core(%core_4_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c4_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c4_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c4_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c4_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c4_r2_local, %b_c4_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c4_r2(Consume, 1)
        aie.objectfifo.release @y_c4_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_5 = aie.core(%core_4_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c4_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c4_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c4_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c4_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c4_r3_local, %b_c4_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c4_r3(Consume, 1)
        aie.objectfifo.release @y_c4_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c5_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c5_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c5_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c5_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c5_r0_local, %b_c5_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c5_r0(Consume, 1)
        aie.objectfifo.release @y_c5_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_3 = aie.core(%core_5_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c5_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c5_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c5_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c5_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c5_r1_local, %b_c5_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c5_r1(Consume, 1)
        aie.objectfifo.release @y_c5_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_4 = aie.core(%core_5_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c5_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c5_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c5_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c5_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c5_r2_local, %b_c5_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c5_r2(Consume, 1)
        aie.objectfifo.release @y_c5_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_5 = aie.core(%core_5_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c5_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c5_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c5_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c5_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c5_r3_local, %b_c5_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c5_r3(Consume, 1)
        aie.objectfifo.release @y_c5_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c6_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c6_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c6_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c6_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c6_r0_local, %b_c6_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c6_r0(Consume, 1)
        aie.objectfifo.release @y_c6_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_3 = aie.core(%core_6_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c6_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c6_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c6_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c6_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c6_r1_local, %b_c6_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c6_r1(Consume, 1)
        aie.objectfifo.release @y_c6_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_4 = aie.core(%core_6_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c6_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c6_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c6_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c6_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c6_r2_local, %b_c6_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c6_r2(Consume, 1)
        aie.objectfifo.release @y_c6_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_5 = aie.core(%core_6_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c6_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c6_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c6_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c6_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c6_r3_local, %b_c6_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c6_r3(Consume, 1)
        aie.objectfifo.release @y_c6_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c7_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c7_r0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c7_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c7_r0(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c7_r0_local, %b_c7_r0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c7_r0(Consume, 1)
        aie.objectfifo.release @y_c7_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_3 = aie.core(%core_7_3) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c7_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c7_r1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c7_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c7_r1(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c7_r1_local, %b_c7_r1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c7_r1(Consume, 1)
        aie.objectfifo.release @y_c7_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_4 = aie.core(%core_7_4) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c7_r2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c7_r2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c7_r2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c7_r2(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c7_r2_local, %b_c7_r2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c7_r2(Consume, 1)
        aie.objectfifo.release @y_c7_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_5 = aie.core(%core_7_5) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c7_r3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c7_r3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c7_r3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c7_r3(Produce, 1) : !aie.objectfifosubview<memref<128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xf32>> -> memref<128xf32>
        func.call @body(%a_c7_r3_local, %b_c7_r3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xf32>) -> ()
        aie.objectfifo.release @a_b_c7_r3(Consume, 1)
        aie.objectfifo.release @y_c7_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%a_b: memref<8192xf32>, %y: memref<4096xf32>) {
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 0][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 512][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 1024][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c2_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 1536][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c3_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 2048][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c4_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2048][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c4_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 2560][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c5_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2560][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c5_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 3072][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c6_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 3072][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c6_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 3584][1, 4, 2, 128][0, 128, 4096, 1]) {id = 0 : i64, metadata = @a_b_c7_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 3584][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c7_shim} : memref<4096xf32>
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
