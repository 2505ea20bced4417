// npubuild xdna kernel cumsum_f32_16x256
// op: cumsum, dtype: f32, attrs: {"axis":-1,"exclusive":false,"reverse":false}
// inputs: x: 16x256 f32; output: y: 16x256 f32
// device npu2, partition npu2: last_axis split, 16 rows in chunks of 1, 8 column(s) x 2 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 4096 x f32); 4: y (y 4096 x f32)
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
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c4_r0(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c4_r1(%mem_4_1, {%core_4_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_r0(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_r1(%core_4_3, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c4_shim(%mem_4_1, {%shim_4_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c5_r0(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c5_r1(%mem_5_1, {%core_5_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_r0(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_r1(%core_5_3, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c5_shim(%mem_5_1, {%shim_5_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c6_r0(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c6_r1(%mem_6_1, {%core_6_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_r0(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_r1(%core_6_3, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c6_shim(%mem_6_1, {%shim_6_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c7_r0(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c7_r1(%mem_7_1, {%core_7_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_r0(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_r1(%core_7_3, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c7_shim(%mem_7_1, {%shim_7_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1] -> [@y_c0_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1_r0, @x_c1_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1] -> [@y_c1_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2_r0, @x_c2_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1] -> [@y_c2_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3_r0, @x_c3_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1] -> [@y_c3_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c4_shim] -> [@x_c4_r0, @x_c4_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c4_r0, @y_c4_r1] -> [@y_c4_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c5_shim] -> [@x_c5_r0, @x_c5_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c5_r0, @y_c5_r1] -> [@y_c5_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c6_shim] -> [@x_c6_r0, @x_c6_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c6_r0, @y_c6_r1] -> [@y_c6_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c7_shim] -> [@x_c7_r0, @x_c7_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c7_r0, @y_c7_r1] -> [@y_c7_shim] ([0, 256] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<1x256xf32>, %out_y: memref<1x256xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cst2_f32 = arith.constant 0x80000000 : f32
      %c256 = arith.constant 256 : index
      scf.for %i0 = %c0 to %c1 step %c1 {
        %v0 = scf.for %i1 = %c0 to %c256 step %c1 iter_args(%v1 = %cst2_f32) -> (f32) {
          %v2 = memref.load %in_x[%i0, %i1] : memref<1x256xf32>
          %v3 = arith.addf %v1, %v2 : f32
          memref.store %v3, %out_y[%i0, %i1] : memref<1x256xf32>
          scf.yield %v3 : f32
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c4_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c4_r0(Consume, 1)
        aie.objectfifo.release @y_c4_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_3 = aie.core(%core_4_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c4_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c4_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c4_r1(Consume, 1)
        aie.objectfifo.release @y_c4_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c5_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c5_r0(Consume, 1)
        aie.objectfifo.release @y_c5_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_3 = aie.core(%core_5_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c5_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c5_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c5_r1(Consume, 1)
        aie.objectfifo.release @y_c5_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c6_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c6_r0(Consume, 1)
        aie.objectfifo.release @y_c6_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_3 = aie.core(%core_6_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c6_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c6_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c6_r1(Consume, 1)
        aie.objectfifo.release @y_c6_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c7_r0(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r0(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c7_r0(Consume, 1)
        aie.objectfifo.release @y_c7_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_3 = aie.core(%core_7_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c7_r1(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c7_r1(Produce, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1x256xf32>) -> ()
        aie.objectfifo.release @x_c7_r1(Consume, 1)
        aie.objectfifo.release @y_c7_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<4096xf32>, %y: memref<4096xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2048][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c4_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2048][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c4_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2560][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c5_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2560][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c5_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 3072][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c6_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 3072][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c6_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 3584][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c7_shim} : memref<4096xf32>
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
