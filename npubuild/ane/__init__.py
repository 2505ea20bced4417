"""Apple Neural Engine support: textual MIL reader, weight.bin blob storage,
graph planning and program emission for Core ML / ANE targets."""
