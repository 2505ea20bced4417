"""The build half of the ``xdna`` target: aie.mlir per kernel (npubuild.emitters.aie), compiled by
aiecc + Peano (npubuild.toolchain) to final.xclbin + insts.bin. Heavy modules are imported only when a
method needs them."""
from __future__ import annotations

import re
from pathlib import Path

from ...core.limits import Limits
from ..base import MEMREF

# what the runtime relies on in an xdna source: the device, and the runtime_sequence's memref arguments
_DEVICE = re.compile(r"aie\.device\s*\(\s*(\w+)\s*\)")
_SEQUENCE = re.compile(r"(?:aiex?\.)?runtime_sequence\s*(?:@[\w$.]+\s*)?\(([^)]*)\)")


class XdnaBuild:
    """AMD Ryzen AI NPU: aie.mlir per kernel -> aiecc + Peano -> final.xclbin + insts.bin."""

    source_name = "aie.mlir"
    # the packages (under npubuild/) the emitted text depends on (the cores' bodies come from the host emitter)
    emitter_dirs = ("emitters/aie", "emitters/host")
    binaries = {"xclbin": "final.xclbin", "insts": "insts.bin", "resources": "resources.json"}  # toolchain.core_elf.RESOURCES_NAME

    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        from .rules import supports

        return supports(op, shapes, dtype, attrs)

    def restrictions(self, op: str) -> tuple:
        """What the NPU designs cannot run of ``op`` (:mod:`.rules`), checked at the spec's line."""
        from .rules import restrictions

        return restrictions(op)

    def has_emitter(self, op: str) -> bool:
        from ...emitters.aie import has_emitter

        return has_emitter(op)

    def emitter_version(self) -> str:
        from ...emitters.aie import EMITTER_VERSION

        return EMITTER_VERSION

    def _fingerprint(self, cache_dir: Path | None) -> dict:
        from ...toolchain.xdna import find_xdna_tools, xdna_fingerprint

        return xdna_fingerprint(find_xdna_tools(probe_versions=False), cache_dir)

    @staticmethod
    def _aiecc_cli(toolchain: dict) -> str:
        """The aiecc CLI dialect to drive; refuses (one line) when the mlir-aie probes did not decide."""
        from ...core.errors import UserError
        from ...toolchain.xdna import xdna_problem

        problem = xdna_problem(toolchain)
        if problem:
            raise UserError(problem)
        return XdnaBuild._cli_of(toolchain)

    @staticmethod
    def _cli_of(toolchain: dict) -> str:
        # the fingerprint read `aiecc --help` once; an aiecc whose help lists neither
        # form (or none at all) is driven with the long-standing legacy flags
        return (toolchain.get("dialect") or {}).get("aiecc_cli") or "legacy"

    def emit_options(self, config, cache_dir: Path | None = None) -> dict:
        """Device from the project; dialect from what the installed mlir-aie's aie-opt accepts
        (the newest forms when mlir-aie is not installed or the probes did not decide)."""
        from ...emitters.aie import DEFAULT_OPTIONS

        fp = self._fingerprint(cache_dir)
        dialect = fp.get("dialect") or {}
        opts = {**DEFAULT_OPTIONS, **{k: v for k, v in dialect.items() if v}, "device": config.xdna_device}
        missing = self._unavailable_kernels()
        if missing:
            opts["unavailable_kernels"] = missing  # xdna_bodies = "auto" does not pick them
        return opts

    def kernel_variants(self, plan, kernel_id: str) -> list[tuple[str, dict]]:
        """One design per device the kernel is wanted for (a family's ``device: [npu1, npu2]``): (device, what
        that design depends on beyond the project's options: its device and body choice)."""
        return [(d, plan.xdna_options(kernel_id, d)) for d in plan.xdna_devices(kernel_id)]

    @staticmethod
    def pinned_interface(text: str) -> tuple | None:
        """What the runtime relies on in an aie.mlir, (where, memref types), or None when it has none."""
        dev, seq = _DEVICE.search(text), _SEQUENCE.search(text)
        if dev is None or seq is None:
            return None
        return (f"aie.device({dev.group(1)}) with runtime_sequence", tuple(MEMREF.findall(seq.group(1))))

    @staticmethod
    def _unavailable_kernels() -> list[str]:
        """mlir-aie kernels the installed mlir-aie does not ship ([] without one: the emitter assumes all)."""
        from ...toolchain.aie_kernel_objects import unavailable_sources
        from ...toolchain.xdna import find_xdna_tools

        return unavailable_sources(find_xdna_tools(probe_versions=False)) or []

    def emit(self, instance, options: dict) -> str:
        from ...emitters.aie import emit

        return emit(instance, options)

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        """One line: which XDNA tools are missing and how to get them (details: `npubuild doctor`)."""
        from ...toolchain.xdna import find_xdna_tools

        tools = find_xdna_tools(probe_versions=False)
        missing = [name for name in ("aiecc", "peano", "xclbinutil") if tools[name].get("missing")]
        if not missing:
            return None
        how = {
            "aiecc": "pip install mlir_aie -f https://github.com/Xilinx/mlir-aie/releases/expanded_assets/latest-wheels-3",
            "peano": "pip install llvm-aie -f https://github.com/Xilinx/llvm-aie/releases/expanded_assets/nightly",
            "xclbinutil": "XRT from ppa:amd-team/xrt",
        }
        label = {"aiecc": "aiecc (mlir-aie)", "peano": "Peano clang++ (llvm-aie)", "xclbinutil": "xclbinutil (XRT)"}
        return (
            f"no {', '.join(label[m] for m in missing)}; install: {'; '.join(how[m] for m in missing)} "
            "(docs/toolchain.md; `npubuild doctor` shows where npubuild looked)"
        )

    def fingerprint(self, cache_dir: Path) -> dict:
        """The toolchain identity compiles are keyed on. Refuses (UserError, one line) when
        the toolchain is complete but what its mlir-aie accepts could not be decided or is
        older than the minimum; prints the Peano warnings once per process."""
        from ...core.errors import UserError
        from ...toolchain.aie_features import warn_once
        from ...toolchain.xdna import xdna_problem

        fp = self._fingerprint(cache_dir)
        problem = xdna_problem(fp)
        if problem:
            raise UserError(problem)
        warn_once(fp.get("warnings") or [])
        return fp

    def flags(self, config=None):
        """npubuild's aiecc and Peano recipe, with the project's options when it has any (so that a
        project without them keeps the keys it had)."""
        from ...toolchain.aiecc import AIECC_FLAGS

        extra = config.flags if config is not None else None
        if extra is None or not (extra.aiecc or extra.peano):
            return AIECC_FLAGS
        return {**AIECC_FLAGS, "aiecc_options": extra.of("aiecc"), "peano_options": extra.of("peano")}

    @staticmethod
    def _peano_extra(flags) -> list[str]:
        return list((flags or {}).get("peano_options") or [])

    @staticmethod
    def _library_kernel(instance, options: dict):
        """The mlir-aie kernel (kernel_library.LibraryKernel) the design's cores call, or None."""
        if instance.op == "matmul" or options.get("body", "generated") == "generated":
            return None
        from ...emitters.aie import design_for

        call = design_for(instance, options).call
        return call.kernel if call is not None else None

    def linked_inputs(self, instance, options: dict, toolchain: dict, flags=None) -> dict:
        """What the design links (the GEMM microkernel, an mlir-aie kernel): sources' sha256, defines,
        flags, for the compile key."""
        if instance.op == "matmul":
            from ...toolchain.microkernel import microkernel_recipe

            return microkernel_recipe(instance, toolchain, options["device"], self._peano_extra(flags),
                                      options.get("bf16_mmul") or "native")
        entry = self._library_kernel(instance, options)
        if entry is None:
            return {}
        from ...toolchain.aie_kernel_objects import aie_kernel_recipe

        return {"aie_kernel": aie_kernel_recipe(entry, toolchain, peano_extra=self._peano_extra(flags))}

    def linked_files(self, instance, options: dict) -> list[str]:
        """Files outside the artifacts a compile reads (doit's file_dep; the no-op check stats them)."""
        from ...core.errors import UserError
        from ...toolchain.xdna import find_xdna_tools

        if instance.op == "matmul":
            from ...emitters.aie import device
            from ...toolchain.aiecc import locate_kernel_sources

            src = locate_kernel_sources(find_xdna_tools(probe_versions=False), device(options).arch)
            return [src["mm_cc"]] if src.get("mm_cc") else []
        entry = self._library_kernel(instance, options)
        if entry is None:
            return []
        from ...toolchain.aie_kernel_objects import kernel_paths

        try:
            p = kernel_paths(entry, find_xdna_tools(probe_versions=False))
        except UserError:
            return []  # the compile reports what is missing
        return [f for f in (p["source"], p["lut_source"]) if f]

    def compile_budget(self, limits: Limits) -> float:
        """Seconds one compile may take under the tool timeouts (two Peano objects, aiecc)."""
        return limits.aiecc_timeout + 2 * limits.tool_timeout

    def design_problem(self, instance, device: str) -> str | None:
        """Why the NPU design cannot take ``instance`` (tile memory, DMA limits ...), or None."""
        from ...emitters.aie import check_instance

        return check_instance(instance, {"device": device})

    def abi(self, instance, options: dict) -> dict | None:
        from ...emitters.aie import body_info, design_for
        from ...emitters.aie.summary import summary

        abi = design_for(instance, options).abi()
        if instance.op != "matmul":
            abi["body"] = body_info(instance, options)
        abi["summary"] = summary(instance, options, abi)
        return abi

    def compile(self, source_text: str, out_dir: Path, log_path: Path, instance, options: dict, store_root: Path, toolchain: dict,
                limits: Limits = Limits(), flags=None) -> None:
        from ...toolchain.aiecc import compile_design
        from ...toolchain.xdna import find_xdna_tools

        tools = find_xdna_tools(probe_versions=False)
        objects = []
        if instance.op == "matmul":
            from ...toolchain.microkernel import build_microkernel

            objects.append(build_microkernel(instance, tools, toolchain, Path(store_root), out_dir, options["device"],
                                             timeout=limits.tool_timeout, peano_extra=self._peano_extra(flags),
                                             bf16_mmul=options.get("bf16_mmul") or "native"))
        entry = self._library_kernel(instance, options)
        if entry is not None:
            from ...toolchain.aie_kernel_objects import build_aie_kernel

            objects.append(build_aie_kernel(entry, tools, toolchain, Path(store_root), out_dir, timeout=limits.tool_timeout,
                                            peano_extra=self._peano_extra(flags)))
        cli = self._aiecc_cli(toolchain)
        from ...emitters.aie import device

        # arch picks the cores' program memory (toolchain.core_elf.PROGRAM_MEMORY)
        compile_design(source_text, out_dir, log_path, tools=tools, cli_dialect=cli, objects=objects, timeout=limits.aiecc_timeout,
                       arch=device(options).arch, opt_level=(toolchain.get("dialect") or {}).get("aiecc_opt_level"),
                       extra_options=list((flags or {}).get("aiecc_options") or []))

    def commands(self, instance, options: dict, out_dir: Path, toolchain: dict, flags=None) -> list:
        """What :meth:`compile` runs, in order: the Peano compiles of what the design links, then aiecc
        (toolchain.aiecc's ``object_command`` and ``design_command``, as the compile). A tool not installed
        here is shown by its name with one note (the build then only emits aie.mlir); sources of a missing
        mlir-aie by their place under ``<mlir_aie>``."""
        from ...toolchain.aiecc import aiecc_env_lines, design_command, peano_install_dir
        from ...toolchain.xdna import find_xdna_tools
        from ..base import ToolCommand

        tools = find_xdna_tools(probe_versions=False)
        out = self._object_commands(instance, options, Path(out_dir), tools, flags)
        aiecc = tools["aiecc"].get("path")
        missing = [n for n in ("aiecc", "peano", "xclbinutil") if not (tools.get(n) or {}).get("path")]
        note = (f"runs with {' '.join(aiecc_env_lines(tools))}" if not missing else
                "aiecc (mlir-aie) is not installed here: the build only emits aie.mlir" if not aiecc else
                f"{', '.join(missing)} not installed here: the build only emits aie.mlir")
        argv = design_command(aiecc or "aiecc", self._cli_of(toolchain), Path(out_dir), peano_install_dir(tools) or "<peano>",
                              (toolchain.get("dialect") or {}).get("aiecc_opt_level"), list((flags or {}).get("aiecc_options") or []))
        return [*out, ToolCommand(argv, str(out_dir), note, output="final.xclbin")]

    def _object_commands(self, instance, options: dict, out_dir: Path, tools: dict, flags) -> list:
        """The Peano compiles (and the LUT kernels' archive) of the objects the design links."""
        from ...core.errors import UserError
        from ...toolchain.aiecc import object_command
        from ..base import ToolCommand

        clangxx = (tools.get("peano") or {}).get("path")
        note = None if clangxx else "Peano clang++ (llvm-aie) is not installed here: the build only emits aie.mlir"
        clangxx, extra = clangxx or "clang++", self._peano_extra(flags)

        no_sources = "mlir-aie's kernel sources are not installed here: shown under <mlir_aie>"

        def step(src, obj: Path, arch, includes, defines, placeholder: bool) -> ToolCommand:
            return ToolCommand(object_command(clangxx, src, obj, arch, includes, defines, extra), str(obj.parent),
                               note or (no_sources if placeholder else None), file=str(src), output=obj.name)

        if instance.op == "matmul":
            # the inputs toolchain.microkernel.build_microkernel compiles with
            from ...toolchain.kernel_sources import locate_kernel_sources
            from ...toolchain.microkernel import LINK_DIR, _overlay

            ov = _overlay(instance, options["device"], options.get("bf16_mmul") or "native")
            src = locate_kernel_sources(tools, ov.arch)
            return [step(src.get("mm_cc") or f"<mlir_aie>/aie_kernels/{ov.arch}/mm.cc", out_dir / LINK_DIR / ov.microkernel,
                         ov.arch, [src.get("include") or "<mlir_aie>/include"], list(ov.define_names), bool(src.get("missing")))]
        entry = self._library_kernel(instance, options)
        if entry is None:
            return []
        from ...toolchain.aie_kernel_objects import LINK_DIR, archive_argv, archiver, compile_steps, kernel_paths, placeholder_paths

        try:
            paths, placeholder = kernel_paths(entry, tools), False
        except UserError:
            paths, placeholder = placeholder_paths(entry), True
        link = out_dir / LINK_DIR
        steps = compile_steps(entry, paths, link)
        out = [step(src, obj, entry.arch, includes, defines, placeholder) for src, obj, _, includes, defines in steps]
        if entry.lut:
            try:
                ar = archiver(tools)
            except UserError:
                ar = "ar"
            out.append(ToolCommand(archive_argv(ar, entry.object_name, [s[1] for s in steps]), str(link), output=entry.object_name))
        return out
