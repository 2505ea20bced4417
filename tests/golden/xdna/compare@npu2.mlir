// npubuild xdna kernel lt_f32_1024_1024
// op: lt, dtype: f32, attrs: {}
// inputs: a: 1024 f32, b: 1024 f32; output: y: 1024 bool
// device npu2, partition npu2_1col: flat split, 1024 rows in chunks of 1024, 1 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: a (a 1024 x f32); 4: b (b 1024 x f32); 5: y (y 1024 x bool)
module {
  aie.device(npu2_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    aie.objectfifo @a_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @b_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @b_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xi8>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<1024xi8>>
    aie.objectfifo.link [@a_c0_shim] -> [@a_c0] ([] [])
    aie.objectfifo.link [@b_c0_shim] -> [@b_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_a: memref<1024xf32>, %in_b: memref<1024xf32>, %out_y: memref<1024xi8>) {
      %c0 = arith.constant 0 : index
      %c1024 = arith.constant 1024 : index
      %c1 = arith.constant 1 : index
      scf.for %i0 = %c0 to %c1024 step %c1 {
        %v0 = memref.load %in_a[%i0] : memref<1024xf32>
        %v1 = memref.load %in_b[%i0] : memref<1024xf32>
        %v2 = arith.cmpf olt, %v0, %v1 : f32
        %v3 = arith.extui %v2 : i1 to i8
        memref.store %v3, %out_y[%i0] : memref<1024xi8>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_c0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        %s1_sv = aie.objectfifo.acquire @b_c0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<1024xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1024xi8>> -> memref<1024xi8>
        func.call @body(%s0, %s1, %o) : (memref<1024xf32>, memref<1024xf32>, memref<1024xi8>) -> ()
        aie.objectfifo.release @a_c0(Consume, 1)
        aie.objectfifo.release @b_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%a: memref<1024xf32>, %b: memref<1024xf32>, %y: memref<1024xi8>) {
      aiex.npu.dma_memcpy_nd(%a[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_c0_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%b[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c0_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<1024xi8>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
    }
  }
}
