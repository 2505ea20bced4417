// npubuild xdna kernel add_f32_4096_4096
// op: add, dtype: f32, attrs: {}
// inputs: a: 4096 f32, b: 4096 f32; output: y: 4096 f32
// device npu2, partition npu2: flat split, 4096 rows in chunks of 256, 8 column(s) x 2 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: a (a 4096 x f32); 4: b (b 4096 x f32); 5: y (y 4096 x f32)
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
    aie.objectfifo @a_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c4_r0(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c4_r1(%mem_4_1, {%core_4_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c4_r0(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c4_r1(%mem_4_1, {%core_4_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c4_r0(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c4_r1(%core_4_3, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c4_shim(%mem_4_1, {%shim_4_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c5_r0(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c5_r1(%mem_5_1, {%core_5_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c5_r0(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c5_r1(%mem_5_1, {%core_5_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c5_r0(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c5_r1(%core_5_3, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c5_shim(%mem_5_1, {%shim_5_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c6_r0(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c6_r1(%mem_6_1, {%core_6_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c6_r0(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c6_r1(%mem_6_1, {%core_6_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c6_r0(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c6_r1(%core_6_3, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c6_shim(%mem_6_1, {%shim_6_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @a_c7_r0(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_c7_r1(%mem_7_1, {%core_7_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @b_c7_r0(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @b_c7_r1(%mem_7_1, {%core_7_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c7_r0(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c7_r1(%core_7_3, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c7_shim(%mem_7_1, {%shim_7_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo.link [@a_c0_shim] -> [@a_c0_r0, @a_c0_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c0_shim] -> [@b_c0_r0, @b_c0_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1] -> [@y_c0_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c1_shim] -> [@a_c1_r0, @a_c1_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c1_shim] -> [@b_c1_r0, @b_c1_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1] -> [@y_c1_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c2_shim] -> [@a_c2_r0, @a_c2_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c2_shim] -> [@b_c2_r0, @b_c2_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1] -> [@y_c2_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c3_shim] -> [@a_c3_r0, @a_c3_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c3_shim] -> [@b_c3_r0, @b_c3_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1] -> [@y_c3_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c4_shim] -> [@a_c4_r0, @a_c4_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c4_shim] -> [@b_c4_r0, @b_c4_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c4_r0, @y_c4_r1] -> [@y_c4_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c5_shim] -> [@a_c5_r0, @a_c5_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c5_shim] -> [@b_c5_r0, @b_c5_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c5_r0, @y_c5_r1] -> [@y_c5_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c6_shim] -> [@a_c6_r0, @a_c6_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c6_shim] -> [@b_c6_r0, @b_c6_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c6_r0, @y_c6_r1] -> [@y_c6_shim] ([0, 256] [])
    aie.objectfifo.link [@a_c7_shim] -> [@a_c7_r0, @a_c7_r1] ([] [0, 256])
    aie.objectfifo.link [@b_c7_shim] -> [@b_c7_r0, @b_c7_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c7_r0, @y_c7_r1] -> [@y_c7_shim] ([0, 256] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_a: memref<256xf32>, %in_b: memref<256xf32>, %out_y: memref<256xf32>) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c16 = arith.constant 16 : index
      %cst3_f32 = arith.constant 0.0 : f32
      scf.for %i0 = %c0 to %c256 step %c16 {
        %v0 = vector.transfer_read %in_a[%i0], %cst3_f32 {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
        %v1 = vector.transfer_read %in_b[%i0], %cst3_f32 {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
        %v2 = arith.addf %v0, %v1 : vector<16xf32>
        vector.transfer_write %v2, %out_y[%i0] {in_bounds = [true]} : vector<16xf32>, memref<256xf32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c0_r0(Consume, 1)
        aie.objectfifo.release @b_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c0_r1(Consume, 1)
        aie.objectfifo.release @b_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c1_r0(Consume, 1)
        aie.objectfifo.release @b_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c1_r1(Consume, 1)
        aie.objectfifo.release @b_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c2_r0(Consume, 1)
        aie.objectfifo.release @b_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c2_r1(Consume, 1)
        aie.objectfifo.release @b_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c3_r0(Consume, 1)
        aie.objectfifo.release @b_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c3_r1(Consume, 1)
        aie.objectfifo.release @b_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c4_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c4_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c4_r0(Consume, 1)
        aie.objectfifo.release @b_c4_r0(Consume, 1)
        aie.objectfifo.release @y_c4_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_3 = aie.core(%core_4_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c4_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c4_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c4_r1(Consume, 1)
        aie.objectfifo.release @b_c4_r1(Consume, 1)
        aie.objectfifo.release @y_c4_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c5_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c5_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c5_r0(Consume, 1)
        aie.objectfifo.release @b_c5_r0(Consume, 1)
        aie.objectfifo.release @y_c5_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_3 = aie.core(%core_5_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c5_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c5_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c5_r1(Consume, 1)
        aie.objectfifo.release @b_c5_r1(Consume, 1)
        aie.objectfifo.release @y_c5_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c6_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c6_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c6_r0(Consume, 1)
        aie.objectfifo.release @b_c6_r0(Consume, 1)
        aie.objectfifo.release @y_c6_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_3 = aie.core(%core_6_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c6_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c6_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c6_r1(Consume, 1)
        aie.objectfifo.release @b_c6_r1(Consume, 1)
        aie.objectfifo.release @y_c6_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c7_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c7_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r0(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c7_r0(Consume, 1)
        aie.objectfifo.release @b_c7_r0(Consume, 1)
        aie.objectfifo.release @y_c7_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_3 = aie.core(%core_7_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c7_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %s1_sv = aie.objectfifo.acquire @b_c7_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r1(Produce, 1) : !aie.objectfifosubview<memref<256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        func.call @body(%s0, %s1, %o) : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
        aie.objectfifo.release @a_c7_r1(Consume, 1)
        aie.objectfifo.release @b_c7_r1(Consume, 1)
        aie.objectfifo.release @y_c7_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%a: memref<4096xf32>, %b: memref<4096xf32>, %y: memref<4096xf32>) {
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 2048][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c4_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 2048][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c4_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2048][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c4_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 2560][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c5_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 2560][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c5_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2560][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c5_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 3072][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c6_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 3072][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c6_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 3072][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c6_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 3584][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c7_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 3584][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c7_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 3584][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c7_shim} : memref<4096xf32>
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
