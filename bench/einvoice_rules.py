"""Vendoring tool (not a speed bench): compile the XRechnung (KoSIT) and Peppol BIS Billing 3.0 (OpenPEPPOL)
schematron sources to the XSLT that ``extractor/einvoice/validate.py`` runs, with SchXslt on saxonche, exactly as
KoSIT's own build does (``build.xml`` of itplr-kosit/xrechnung-schematron):

1. XRechnung: its ``.sch`` (``@xr-schematron.version.full@`` / ``@xrechnung.version@`` filled as Ant's filter does)
   merged with the whitelisted Peppol rules by KoSIT's ``src/xsl/peppol-into-xr.xsl`` (``src/xsl/rule-list.xml``),
   then compiled with SchXslt's ``2.0/pipeline-for-svrl.xsl``;
2. Peppol: ``rules/sch/PEPPOL-EN16931-{UBL,CII}.sch`` compiled with the same pipeline.

The sources are read from bare git directories (``git show TAG:PATH``), e.g. the mirrors of
github.com/itplr-kosit/xrechnung-schematron, github.com/OpenPEPPOL/peppol-bis-invoice-3 and
github.com/schxslt/schxslt. Each output folder gets the repository's licence and a ``SOURCE.txt`` naming the
commits (``extractor/einvoice/rules/README.md`` says how to update).

Usage::

    python bench/einvoice_rules.py --xrechnung GITDIR --peppol GITDIR --schxslt GITDIR \\
        [--xrechnung-tag v2.5.0] [--peppol-tag v3.0.19] [--schxslt-tag v1.10.1] [--out extractor/einvoice/rules]

Prints one Markdown table row per compiled file (size, compile seconds); exit 0, 1 on a failed step.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
XRECHNUNG_VERSION = "3.0.2"  # the XRechnung release the schematron release targets (its build.xml)
SCHXSLT_DIR = "core/src/main/resources/xslt/2.0"


def git_show(git_dir: Path, ref: str, path: str) -> bytes:
    """One file of a bare repository at a ref (a tag is taken as ``refs/tags/<tag>`` when it exists)."""
    tag = f"refs/tags/{ref}"
    known = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "-q", "--verify", tag], capture_output=True)
    spec = f"{tag if known.returncode == 0 else ref}:{path}"
    return subprocess.run(["git", f"--git-dir={git_dir}", "show", spec], capture_output=True, check=True).stdout


def commit_of(git_dir: Path, ref: str) -> str:
    """The commit a ref names."""
    for spec in (f"refs/tags/{ref}^{{commit}}", f"{ref}^{{commit}}"):
        out = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "-q", "--verify", spec], capture_output=True)
        if out.returncode == 0:
            return out.stdout.decode().strip()
    raise SystemExit(f"{git_dir}: no ref {ref}")


def write(path: Path, data: bytes) -> Path:
    """Write a file, making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def vendored(out: Path) -> int:
    """``--smoke``: the table of the rule sets this script wrote into ``out`` (each parsed as XML), 1 when none."""
    from lxml import etree

    files = sorted(p for p in out.glob("*/*.xsl") if (p.parent / "SOURCE.txt").is_file())
    print("| file | bytes | root |")
    print("|---|---|---|")
    for path in files:
        root = etree.parse(str(path)).getroot()
        print(f"| {path.parent.name}/{path.name} | {path.stat().st_size} | {etree.QName(root).localname} |")
    return 0 if files else 1


def main() -> int:
    """Compile and write the rule sets, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xrechnung", type=Path, help="bare git dir of xrechnung-schematron")
    parser.add_argument("--peppol", type=Path, help="bare git dir of peppol-bis-invoice-3")
    parser.add_argument("--schxslt", type=Path, help="bare git dir of schxslt")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="without the sources (CI): the compiled rule sets in --out, each file's size, and that each parses as XML",
    )
    parser.add_argument("--xrechnung-tag", default="v2.5.0")
    parser.add_argument("--peppol-tag", default="v3.0.19")
    parser.add_argument("--schxslt-tag", default="v1.10.1")
    parser.add_argument("--out", type=Path, default=ROOT / "extractor" / "einvoice" / "rules")
    args = parser.parse_args()
    if args.smoke:
        return vendored(args.out)
    if not (args.xrechnung and args.peppol and args.schxslt):
        parser.error("--xrechnung, --peppol and --schxslt are required (or --smoke)")
    from saxonche import PySaxonProcessor

    xr_version = args.xrechnung_tag.lstrip("v")
    peppol_version = args.peppol_tag.lstrip("v")
    xr_out = args.out / f"xrechnung-{XRECHNUNG_VERSION}-schematron-{xr_version}"
    peppol_out = args.out / f"peppol-bis-{peppol_version}"
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name, PySaxonProcessor(license=False) as processor:
        tmp = Path(tmp_name)
        # SchXslt's XSLT 2.0 pipeline, its folder layout kept (its stylesheets include each other by relative href)
        listing = subprocess.run(
            ["git", f"--git-dir={args.schxslt}", "ls-tree", "-r", "--name-only", f"refs/tags/{args.schxslt_tag}"],
            capture_output=True,
            check=True,
            text=True,
        ).stdout.split()
        for name in listing:
            if name.startswith(SCHXSLT_DIR + "/") and name.endswith(".xsl"):
                write(tmp / "schxslt" / name[len(SCHXSLT_DIR) + 1 :], git_show(args.schxslt, args.schxslt_tag, name))
        xslt = processor.new_xslt30_processor()
        schxslt = xslt.compile_stylesheet(stylesheet_file=str(tmp / "schxslt" / "pipeline-for-svrl.xsl"))
        # no metadata (it holds the compile time): the same sources give byte-identical XSLT, so a re-run diffs clean
        schxslt.set_parameter("schxslt.compile.metadata", processor.make_boolean_value(False))

        def compile_sch(sch: Path, target: Path) -> None:
            target.parent.mkdir(parents=True, exist_ok=True)
            start = time.perf_counter()
            schxslt.transform_to_file(source_file=str(sch), output_file=str(target))
            seconds = time.perf_counter() - start
            if not target.is_file() or target.stat().st_size == 0:
                raise SystemExit(f"{sch}: SchXslt wrote nothing")
            rows.append((target, seconds))

        # KoSIT's build layout: src/xsl/{peppol-into-xr.xsl,rule-list.xml}, build/bis/PEPPOL-*.sch,
        # build/schematron/{common.sch,tmp/*.sch}; the merge reads the Peppol files by those relative paths
        xr = tmp / "xr"
        for name in ("peppol-into-xr.xsl", "rule-list.xml"):
            write(xr / "src" / "xsl" / name, git_show(args.xrechnung, args.xrechnung_tag, f"src/xsl/{name}"))
        for syntax in ("UBL", "CII"):
            sch = git_show(args.peppol, args.peppol_tag, f"rules/sch/PEPPOL-EN16931-{syntax}.sch")
            write(xr / "build" / "bis" / f"PEPPOL-EN16931-{syntax}.sch", sch)
            write(tmp / "peppol" / f"PEPPOL-EN16931-{syntax}.sch", sch)
        common = git_show(args.xrechnung, args.xrechnung_tag, "src/validation/schematron/common.sch")
        write(xr / "build" / "schematron" / "common.sch", common)
        merge = xslt.compile_stylesheet(stylesheet_file=str(xr / "src" / "xsl" / "peppol-into-xr.xsl"))
        for syntax in ("UBL", "CII"):
            name = f"XRechnung-{syntax}-validation"
            source = git_show(
                args.xrechnung, args.xrechnung_tag, f"src/validation/schematron/{syntax.lower()}/{name}.sch"
            )
            source = source.replace(b"@xr-schematron.version.full@", xr_version.encode())
            source = source.replace(b"@xrechnung.version@", XRECHNUNG_VERSION.encode())
            filtered = write(xr / "build" / "schematron" / "tmp" / f"{name}.sch", source)
            merged = xr / "build" / "schematron" / syntax.lower() / f"{name}.sch"
            merged.parent.mkdir(parents=True, exist_ok=True)
            merge.set_parameter("syntax", processor.make_string_value(syntax))
            merge.transform_to_file(source_file=str(filtered), output_file=str(merged))
            compile_sch(merged, xr_out / f"{name}.xsl")
        for syntax in ("UBL", "CII"):
            name = f"PEPPOL-EN16931-{syntax}"
            compile_sch(tmp / "peppol" / f"{name}.sch", peppol_out / f"{name}.xsl")
    write(xr_out / "LICENSE", git_show(args.xrechnung, args.xrechnung_tag, "LICENSE"))
    # the Peppol repository has no licence file; its guide's statement of copyright is what it says of reuse
    guide = git_show(args.peppol, args.peppol_tag, "guide/bis/introduction.adoc").decode()
    statement = guide.split(".Statement of copyright", 1)[1].split("****")[1].strip()
    notice = f"# OpenPeppol statement of copyright (guide/bis/introduction.adoc, {args.peppol_tag})\n\n{statement}\n"
    write(peppol_out / "NOTICE.md", notice.encode())
    schxslt_licence = git_show(args.schxslt, args.schxslt_tag, "LICENSE")
    for folder, repo, tag, git_dir in (
        (xr_out, "itplr-kosit/xrechnung-schematron", args.xrechnung_tag, args.xrechnung),
        (peppol_out, "OpenPEPPOL/peppol-bis-invoice-3", args.peppol_tag, args.peppol),
    ):
        write(folder / "LICENSE-SchXslt.txt", schxslt_licence)
        lines = [f"{repo} {tag} ({commit_of(git_dir, tag)})"]
        if folder == xr_out:
            peppol = f"{args.peppol_tag} ({commit_of(args.peppol, args.peppol_tag)})"
            lines.append(f"merged with OpenPEPPOL/peppol-bis-invoice-3 {peppol}")
        lines.append(
            f"compiled by schxslt/schxslt {args.schxslt_tag} ({commit_of(args.schxslt, args.schxslt_tag)}) "
            "2.0/pipeline-for-svrl.xsl on saxonche (bench/einvoice_rules.py)"
        )
        write(folder / "SOURCE.txt", ("\n".join(lines) + "\n").encode())
    print("| file | bytes | compile s |")
    print("|---|---|---|")
    for target, seconds in rows:
        print(f"| {target.parent.name}/{target.name} | {target.stat().st_size} | {seconds:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
