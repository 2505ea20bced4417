// npubuild xdna kernel argmax_f32_16x256_index_dtype-i32
// op: argmax, dtype: f32, attrs: {"axis":-1,"index_dtype":"i32","keepdims":false,"select_last_index":false}
// inputs: x: 16x256 f32; output: y: 16 i32
// device npu1, partition npu1: last_axis split, 16 rows in chunks of 1, 4 column(s) x 4 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 4096 x f32); 4: y (y 16 x i32)
module {
  aie.device(npu1) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %shim_2_0 = aie.tile(2, 0)
    %shim_3_0 = aie.tile(3, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %mem_2_1 = aie.tile(2, 1)
    %mem_3_1 = aie.tile(3, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    %core_2_2 = aie.tile(2, 2)
    %core_3_2 = aie.tile(3, 2)
    %core_0_3 = aie.tile(0, 3)
    %core_1_3 = aie.tile(1, 3)
    %core_2_3 = aie.tile(2, 3)
    %core_3_3 = aie.tile(3, 3)
    %core_0_4 = aie.tile(0, 4)
    %core_1_4 = aie.tile(1, 4)
    %core_2_4 = aie.tile(2, 4)
    %core_3_4 = aie.tile(3, 4)
    %core_0_5 = aie.tile(0, 5)
    %core_1_5 = aie.tile(1, 5)
    %core_2_5 = aie.tile(2, 5)
    %core_3_5 = aie.tile(3, 5)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r2(%mem_0_1, {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c0_r3(%mem_0_1, {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c0_r2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c0_r3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<4xi32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r2(%mem_1_1, {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c1_r3(%mem_1_1, {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c1_r2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c1_r3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<4xi32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r2(%mem_2_1, {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c2_r3(%mem_2_1, {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c2_r2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c2_r3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<4xi32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r2(%mem_3_1, {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @x_c3_r3(%mem_3_1, {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<1x256xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c3_r2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c3_r3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1xi32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<4xi32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1, @x_c0_r2, @x_c0_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1, @y_c0_r2, @y_c0_r3] -> [@y_c0_shim] ([0, 1, 2, 3] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1_r0, @x_c1_r1, @x_c1_r2, @x_c1_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1, @y_c1_r2, @y_c1_r3] -> [@y_c1_shim] ([0, 1, 2, 3] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2_r0, @x_c2_r1, @x_c2_r2, @x_c2_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1, @y_c2_r2, @y_c2_r3] -> [@y_c2_shim] ([0, 1, 2, 3] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3_r0, @x_c3_r1, @x_c3_r2, @x_c3_r3] ([] [0, 256, 512, 768])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1, @y_c3_r2, @y_c3_r3] -> [@y_c3_shim] ([0, 1, 2, 3] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<1x256xf32>, %out_y: memref<1xi32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c255 = arith.constant 255 : index
      scf.for %i0 = %c0 to %c1 step %c1 {
        %v0 = memref.load %in_x[%i0, %c0] : memref<1x256xf32>
        %v1:2 = scf.for %i1 = %c0 to %c255 step %c1 iter_args(%v2 = %v0, %v3 = %c0) -> (f32, index) {
          %v4 = arith.addi %i1, %c1 : index
          %v5 = memref.load %in_x[%i0, %v4] : memref<1x256xf32>
          %v6 = arith.cmpf ugt, %v5, %v2 : f32
          %v7 = arith.cmpf ord, %v2, %v2 : f32
          %v8 = arith.andi %v6, %v7 : i1
          %v9 = arith.select %v8, %v5, %v2 : f32
          %v10 = arith.select %v8, %v4, %v3 : index
          scf.yield %v9, %v10 : f32, index
        }
        %v11 = arith.index_cast %v1#1 : index to i32
        memref.store %v11, %out_y[%i0] : memref<1xi32>
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
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
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
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_4 = aie.core(%core_0_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r2(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c0_r2(Consume, 1)
        aie.objectfifo.release @y_c0_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_5 = aie.core(%core_0_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r3(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c0_r3(Consume, 1)
        aie.objectfifo.release @y_c0_r3(Produce, 1)
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
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
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
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_4 = aie.core(%core_1_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r2(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c1_r2(Consume, 1)
        aie.objectfifo.release @y_c1_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_5 = aie.core(%core_1_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r3(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c1_r3(Consume, 1)
        aie.objectfifo.release @y_c1_r3(Produce, 1)
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
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
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
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_4 = aie.core(%core_2_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r2(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c2_r2(Consume, 1)
        aie.objectfifo.release @y_c2_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_5 = aie.core(%core_2_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r3(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c2_r3(Consume, 1)
        aie.objectfifo.release @y_c2_r3(Produce, 1)
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
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
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
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_4 = aie.core(%core_3_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r2(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r2(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c3_r2(Consume, 1)
        aie.objectfifo.release @y_c3_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_5 = aie.core(%core_3_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r3(Consume, 1) : !aie.objectfifosubview<memref<1x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x256xf32>> -> memref<1x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r3(Produce, 1) : !aie.objectfifosubview<memref<1xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        func.call @body(%s0, %o) : (memref<1x256xf32>, memref<1xi32>) -> ()
        aie.objectfifo.release @x_c3_r3(Consume, 1)
        aie.objectfifo.release @y_c3_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<4096xf32>, %y: memref<16xi32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 4][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<16xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 4][1, 1, 1, 4][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<16xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2048][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 8][1, 1, 1, 4][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<16xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 3072][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 12][1, 1, 1, 4][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<16xi32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
    }
  }
}
