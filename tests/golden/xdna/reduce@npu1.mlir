// npubuild xdna kernel reduce_max_f32_64x128
// op: reduce_max, dtype: f32, attrs: {"axes":[-1],"keepdims":false}
// inputs: x: 64x128 f32; output: y: 64 f32
// device npu1, partition npu1: last_axis split, 64 rows in chunks of 4, 4 column(s) x 4 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 8192 x f32); 4: y (y 64 x f32)
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
    aie.objectfifo @x_c0_g0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c0_g0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c0_g1_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c0_r2(%mem_0_1, {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c0_r3(%mem_0_1, {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c0_r2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c0_r3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c0_g1_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c1_g0_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c1_g0_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c1_g1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c1_r2(%mem_1_1, {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c1_r3(%mem_1_1, {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c1_r2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c1_r3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c1_g1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c2_g0_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c2_g0_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c2_g1_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c2_r2(%mem_2_1, {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c2_r3(%mem_2_1, {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c2_r2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c2_r3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c2_g1_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c3_g0_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c3_g0_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo @x_c3_g1_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_c3_r2(%mem_3_1, {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @x_c3_r3(%mem_3_1, {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<4x128xf32>>
    aie.objectfifo @y_c3_r2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c3_r3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<4xf32>>
    aie.objectfifo @y_c3_g1_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<8xf32>>
    aie.objectfifo.link [@x_c0_g0_shim] -> [@x_c0_r0, @x_c0_r1] ([] [0, 512])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1] -> [@y_c0_g0_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c0_g1_shim] -> [@x_c0_r2, @x_c0_r3] ([] [0, 512])
    aie.objectfifo.link [@y_c0_r2, @y_c0_r3] -> [@y_c0_g1_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c1_g0_shim] -> [@x_c1_r0, @x_c1_r1] ([] [0, 512])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1] -> [@y_c1_g0_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c1_g1_shim] -> [@x_c1_r2, @x_c1_r3] ([] [0, 512])
    aie.objectfifo.link [@y_c1_r2, @y_c1_r3] -> [@y_c1_g1_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c2_g0_shim] -> [@x_c2_r0, @x_c2_r1] ([] [0, 512])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1] -> [@y_c2_g0_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c2_g1_shim] -> [@x_c2_r2, @x_c2_r3] ([] [0, 512])
    aie.objectfifo.link [@y_c2_r2, @y_c2_r3] -> [@y_c2_g1_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c3_g0_shim] -> [@x_c3_r0, @x_c3_r1] ([] [0, 512])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1] -> [@y_c3_g0_shim] ([0, 4] [])
    aie.objectfifo.link [@x_c3_g1_shim] -> [@x_c3_r2, @x_c3_r3] ([] [0, 512])
    aie.objectfifo.link [@y_c3_r2, @y_c3_r3] -> [@y_c3_g1_shim] ([0, 4] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<4x128xf32>, %out_y: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %vc3 = arith.constant dense<0xFF800000> : vector<16xf32>
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %cst6_f32 = arith.constant 0.0 : f32
      scf.for %i0 = %c0 to %c4 step %c1 {
        %v0 = scf.for %i1 = %c0 to %c128 step %c16 iter_args(%v1 = %vc3) -> (vector<16xf32>) {
          %v2 = vector.transfer_read %in_x[%i0, %i1], %cst6_f32 {in_bounds = [true]} : memref<4x128xf32>, vector<16xf32>
          %v3 = arith.maximumf %v1, %v2 : vector<16xf32>
          scf.yield %v3 : vector<16xf32>
        }
        %v4 = vector.reduction <maximumf>, %v0 : vector<16xf32> into f32
        memref.store %v4, %out_y[%i0] : memref<4xf32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c0_r2(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r2(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c0_r3(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r3(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c1_r2(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r2(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c1_r3(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r3(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c2_r2(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r2(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c2_r3(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r3(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c3_r2(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r2(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c3_r3(Consume, 1) : !aie.objectfifosubview<memref<4x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<4x128xf32>> -> memref<4x128xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r3(Produce, 1) : !aie.objectfifosubview<memref<4xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<4xf32>> -> memref<4xf32>
        func.call @body(%s0, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
        aie.objectfifo.release @x_c3_r3(Consume, 1)
        aie.objectfifo.release @y_c3_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<8192xf32>, %y: memref<64xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_g0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 8][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_g0_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, metadata = @x_c0_g1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 8][1, 1, 1, 8][0, 0, 0, 1]) {id = 3 : i64, issue_token = true, metadata = @y_c0_g1_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2048][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_g0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 16][1, 1, 1, 8][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_g0_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 3072][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, metadata = @x_c1_g1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 24][1, 1, 1, 8][0, 0, 0, 1]) {id = 3 : i64, issue_token = true, metadata = @y_c1_g1_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 4096][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_g0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 32][1, 1, 1, 8][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_g0_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 5120][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, metadata = @x_c2_g1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 40][1, 1, 1, 8][0, 0, 0, 1]) {id = 3 : i64, issue_token = true, metadata = @y_c2_g1_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 6144][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_g0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 48][1, 1, 1, 8][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_g0_shim} : memref<64xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 7168][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, metadata = @x_c3_g1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 56][1, 1, 1, 8][0, 0, 0, 1]) {id = 3 : i64, issue_token = true, metadata = @y_c3_g1_shim} : memref<64xf32>
      aiex.npu.dma_wait {symbol = @y_c0_g0_shim}
      aiex.npu.dma_wait {symbol = @y_c0_g1_shim}
      aiex.npu.dma_wait {symbol = @y_c1_g0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_g1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_g0_shim}
      aiex.npu.dma_wait {symbol = @y_c2_g1_shim}
      aiex.npu.dma_wait {symbol = @y_c3_g0_shim}
      aiex.npu.dma_wait {symbol = @y_c3_g1_shim}
    }
  }
}
