"""Tests for reading inputs (``extractor.inputs``: ``discover``, ``document``, ``load``, ``pdf``, ``image``): page
selection, sizing, sniffing, input expansion and loading PDFs and images."""

from __future__ import annotations

import hashlib
import json
import os
import struct
import zlib
from pathlib import Path

import pytest
from fpdf.enums import EncryptionMethod
from helpers import image_bytes, make_pdf, raw_pdf, shared_path, text_pdf
from PIL import Image

from extractor.errors import InputError, UsageError
from extractor.inputs.discover import expand_inputs
from extractor.inputs.document import (
    DEFAULT_VISION_TOKENS,
    MAX_ASPECT,
    PageSelection,
    RasterSettings,
    max_pixels_for,
    parse_pages,
    target_size,
)
from extractor.inputs.load import load_document, sniff_kind
from extractor.inputs.pdf import saslprep

BUDGET = max_pixels_for()


# ------------------------------------------------------------------------------------------------------- builders


def png_claiming(width: int, height: int) -> bytes:
    """A tiny 1-bit PNG whose IHDR is patched to claim the given size (CRC fixed), pixels never decodable."""
    data = bytearray(image_bytes(Image.new("1", (8, 8)), "PNG"))
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return bytes(data)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def load_error(source, **settings) -> InputError:
    with pytest.raises(InputError) as info:
        load_document(source, raster=RasterSettings(**settings))
    return info.value


# --------------------------------------------------------------------------------------------------- parse_pages


@pytest.mark.parametrize(
    "spec, ranges, text",
    [
        ("1", ((1, 1),), "1"),
        ("1-3,5", ((1, 3), (5, 5)), "1-3,5"),
        ("2-", ((2, None),), "2-"),
        ("-3", ((1, 3),), "1-3"),
        ("5,1-2,3", ((1, 3), (5, 5)), "1-3,5"),
        (" 1 - 2 , 4 ", ((1, 2), (4, 4)), "1-2,4"),
        ("3-,1", ((1, 1), (3, None)), "1,3-"),
        ("2-,5-7", ((2, None),), "2-"),
        ("4-6,1-5", ((1, 6),), "1-6"),
        ("7,7", ((7, 7),), "7"),
    ],
)
def test_parse_pages(spec, ranges, text):
    selection = parse_pages(spec)
    assert selection == PageSelection(ranges)
    assert str(selection) == text


@pytest.mark.parametrize(
    "spec", ["", " ", "0", "0-2", "3-1", "-0", "a", "1,,2", "1,", ",", "-", "1-2-3", "1.5", "²", "+1", "1;2"]
)
def test_parse_pages_rejects(spec):
    with pytest.raises(UsageError):
        parse_pages(spec)


@pytest.mark.parametrize(
    "spec, page_count, indices, beyond",
    [
        ("2-5", 3, [1, 2], "4-5"),
        ("5-", 3, [], "5-"),
        ("1-", 3, [0, 1, 2], ""),
        ("2,4", 3, [1], "4"),
        ("1-3", 3, [0, 1, 2], ""),
    ],
)
def test_page_selection_resolves(spec, page_count, indices, beyond):
    selection = parse_pages(spec)
    assert (list(selection.indices(page_count)), selection.beyond(page_count)) == (indices, beyond)
    assert selection.count(page_count) == len(indices)


# --------------------------------------------------------------------------------------------------------- sizing


def test_budget_defaults():
    assert DEFAULT_VISION_TOKENS == 1300
    assert max_pixels_for() == 1_331_200
    assert max_pixels_for(tokens=1000, patch_size=14, merge_size=2) == 784_000
    assert RasterSettings().max_pixels == 1_331_200


@pytest.mark.parametrize(
    "width, height, max_pixels, min_side, expected",
    [
        (595.28, 841.89, BUDGET, 32, (970, 1372)),  # A4 at the default budget: 1,330,840 px, ~117 dpi
        (595, 842, BUDGET, 32, (969, 1372)),
        (612, 792, BUDGET, 32, (1014, 1312)),  # US Letter
        (841.89, 595.28, BUDGET, 32, (1372, 970)),
        (595, 2_147_483_647, BUDGET, 32, (81, 16200)),  # poppler-85140: clamped to 200:1
        (2_147_483_647, 595, BUDGET, 32, (16200, 81)),
        (1, 1, BUDGET, 32, (1153, 1153)),  # tiny page: vector, so it fills the budget
        (3.84, 3.84, BUDGET, 32, (1153, 1153)),
        (100, 100, 1024, 32, (32, 32)),  # budget == min_side²: the only size allowed
        (10_000, 1, 4096, 32, (128, 32)),  # aspect limited to 4:1 so the short side stays 32
        (1e-300, 1e300, BUDGET, 32, (81, 16200)),
    ],
)
def test_target_size(width, height, max_pixels, min_side, expected):
    assert target_size(width, height, max_pixels=max_pixels, min_side=min_side) == expected


@pytest.mark.parametrize(
    "max_pixels, min_side",
    [(m, s) for m in (1024, 5000, 250_000, BUDGET, 4_000_000) for s in (1, 32, 64) if m >= s * s],
)
def test_target_size_never_exceeds_budget(max_pixels, min_side):
    for width in (1, 3.84, 50, 595.28, 612, 1e4, 2_147_483_647, 1e30):
        for height in (1, 7.5, 100, 841.89, 792, 3e5, 2_147_483_647):
            w, h = target_size(width, height, max_pixels=max_pixels, min_side=min_side)
            assert w * h <= max_pixels and min(w, h) >= min_side
            assert max(w / h, h / w) <= MAX_ASPECT  # Qwen's resizer refuses more


@pytest.mark.parametrize(
    "width, height, max_pixels",
    [(0, 100, BUDGET), (100, -1, BUDGET), (float("nan"), 1, BUDGET), (float("inf"), 1, BUDGET), (10, 10, 1000)],
)
def test_target_size_rejects(width, height, max_pixels):
    with pytest.raises(ValueError):
        target_size(width, height, max_pixels=max_pixels)


@pytest.mark.parametrize("settings", [dict(max_pixels=1000), dict(min_side=0), dict(max_pages=0), dict(max_bytes=0)])
def test_settings_validate(settings):
    with pytest.raises(UsageError):
        RasterSettings(**settings)


# -------------------------------------------------------------------------------------------------------- sniffing


@pytest.mark.parametrize(
    "head, kind",
    [
        (b"%PDF-1.7\n%\xe2\xe3", "pdf"),
        (b"\x00" * 500 + b"%PDF-1.4", "pdf"),  # header anywhere in the first KiB
        (b"\x00" * 1100 + b"%PDF-1.4", None),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR%PDF-", "png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "jpeg"),
        (b"II*\x00\x08\x00\x00\x00", "tiff"),
        (b"MM\x00*\x00\x00\x00\x08", "tiff"),
        (b"II+\x00\x08\x00\x00\x00", "tiff"),  # BigTIFF
        (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "webp"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt ", None),
        (b"<!DOCTYPE html><html>", None),
        (b"GIF89a", None),
        (b"", None),
    ],
)
def test_sniff_kind(head, kind):
    assert sniff_kind(head) == kind


@pytest.mark.parametrize(
    "password, prepared",
    [
        ("SªSL\xadprep", "SaSLprep"),  # ª -> a (NFKC), soft hyphen mapped to nothing
        ("user", "user"),
        ("I\u00adX", "IX"),
        ("\u2168", "IX"),
        ("a\u00a0b", "a b"),  # non-ASCII space -> space
        ("hôtel", "hôtel"),
        ("a\u0007b", None),  # control character: prohibited
        ("\u0627\u0031", None),  # RandALCat string must end with RandALCat
        ("\u0627\u0628", "\u0627\u0628"),
    ],
)
def test_saslprep(password, prepared):
    assert saslprep(password) == prepared


# --------------------------------------------------------------------------------------------------- expand_inputs


@pytest.fixture
def tree(tmp_path):
    for name in ("b.PNG", "a.pdf", ".hidden.pdf", "notes.txt", "sub/c.pdf", "scan[1].pdf", "dd/e.jpg"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    return tmp_path


@pytest.mark.parametrize(
    "inputs, expected",
    [
        (["{d}"], ["a.pdf", "b.PNG", "scan[1].pdf"]),  # top level, supported, not hidden, sorted
        (["{d}/*.pdf"], ["a.pdf", "scan[1].pdf"]),
        (["{d}/**/*.pdf"], ["a.pdf", "scan[1].pdf", "sub/c.pdf"]),  # ** recurses
        (["{d}/notes.txt"], ["notes.txt"]),  # explicit files are kept whatever their type
        (["{d}/*.txt"], ["notes.txt"]),  # like a shell: every match
        (["{d}/d*"], ["dd/e.jpg"]),  # a directory matched by a pattern is expanded
        (["{d}/scan[1].pdf"], ["scan[1].pdf"]),  # an existing path is literal, not a pattern
        (["{d}/missing.pdf"], ["missing.pdf"]),
        (["{d}/*.tif"], ["*.tif"]),  # a pattern matching nothing stays, to become not_found
        (["{d}/a.pdf", "{d}", "{d}/*.pdf"], ["a.pdf", "b.PNG", "scan[1].pdf"]),  # each file once, first order
        ([], []),
    ],
)
def test_expand_inputs(tree, inputs, expected):
    got = expand_inputs([i.format(d=tree) for i in inputs])
    assert [p.relative_to(tree).as_posix() for p in got] == expected


# ------------------------------------------------------------------------------------------------------------ PDFs


def test_pdf_pages_and_text_layer(tmp_path):
    data = make_pdf(("Invoice 42", "Total 17.50 EUR", "Thank you"))
    path = write(tmp_path, "invoice.pdf", data)
    doc = load_document(path)
    assert (doc.source, doc.kind, doc.page_count, doc.sha256, doc.warnings) == (
        str(path),
        "pdf",
        3,
        hashlib.sha256(data).hexdigest(),
        (),
    )
    assert [p.index for p in doc.pages] == [0, 1, 2]
    assert [p.text.strip() for p in doc.pages] == ["Invoice 42", "Total 17.50 EUR", "Thank you"]
    page = doc.pages[0]
    assert (page.image.mode, page.image.size, page.warnings) == ("RGB", (970, 1372), ())
    assert (round(page.width_pt, 2), round(page.height_pt, 2)) == (595.28, 841.89)
    assert page.image.getextrema() != ((255, 255),) * 3  # the text was drawn


def test_pdf_page_selection_and_cap(tmp_path):
    data = make_pdf(("one", "two", "three", "four"))
    doc = load_document(data, raster=RasterSettings(pages=parse_pages("2-3,9")))
    assert (doc.source, doc.page_count, [p.index for p in doc.pages]) == ("<bytes>", 4, [1, 2])
    assert doc.warnings == ("selected pages 9 do not exist (the document has 4); skipped",)
    doc = load_document(data, raster=RasterSettings(max_pages=2))
    assert [p.text.strip() for p in doc.pages] == ["one", "two"]
    assert doc.warnings == ("only the first 2 of 4 selected pages were rendered",)
    assert load_error(data, pages=parse_pages("7-")).code == "empty"


def test_pdf_budget_and_min_side(tmp_path):
    doc = load_document(make_pdf(size=(612, 792)), raster=RasterSettings(max_pixels=200_000, min_side=64))
    w, h = doc.pages[0].image.size
    assert w * h <= 200_000 and min(w, h) >= 64


def test_pdf_rotation_and_odd_boxes():
    empty_box = "/MediaBox [0 0 600 800] /CropBox [600 800 1000 1000]"  # no intersection: pdfium says 0 x 0
    doc = load_document(raw_pdf("/MediaBox [0 0 200 100] /Rotate 90", empty_box, "/MediaBox [0 0 1 1]"))
    rotated, tiny = doc.pages
    assert (rotated.index, rotated.width_pt, rotated.height_pt) == (0, 100, 200)
    assert rotated.image.height > rotated.image.width
    assert (tiny.index, tiny.image.size, tiny.text) == (2, (1153, 1153), "")  # no text layer is "", not None
    assert doc.warnings == ("page 2: the page box is 0 x 0 pt; skipped",)


def test_pdf_giant_page_is_cropped_not_allocated():
    doc = load_document(raw_pdf("/MediaBox [0 0 595 2147483647]"))
    page = doc.pages[0]
    assert page.image.size == (81, 16200)
    assert page.warnings == (
        "the page is 595 x 2,147,483,648 pt, too elongated to render whole; only its top part was rendered",
    )


@pytest.mark.parametrize(
    "page, code",
    [
        ("/MediaBox [0 0 600 800] /CropBox [600 800 1000 1000]", "corrupt"),
        ("/MediaBox [0 0 1 1000000000]", "too_large"),  # even the cropped render would need a > 2^31 px canvas
    ],
)
def test_pdf_without_renderable_pages(page, code):
    error = load_error(raw_pdf(page))
    assert (error.code, error.message.split(" (")[0]) == (code, "<bytes>: no page could be rendered")


@pytest.mark.parametrize(
    "passwords, code", [((), "encrypted"), (("nope",), "wrong_password"), (("nope", "wrong"), "wrong_password")]
)
def test_pdf_encrypted_errors(tmp_path, passwords, code):
    path = write(tmp_path, "locked.pdf", make_pdf(user_password="secret"))
    error = load_error(path, passwords=passwords)
    assert (error.code, error.source) == (code, str(path))
    assert str(error).startswith(f"{path}: the file is encrypted")


@pytest.mark.parametrize("method", [EncryptionMethod.RC4, EncryptionMethod.AES_128, EncryptionMethod.AES_256])
def test_pdf_encrypted_opens_with_password(method):
    doc = load_document(
        make_pdf(user_password="secret", method=method), raster=RasterSettings(passwords=("nope", "secret"))
    )
    assert doc.pages[0].text.strip() == "Invoice 42"


def test_pdf_password_is_saslprepped():
    data = make_pdf(user_password="SaSLprep", method=EncryptionMethod.AES_256)
    doc = load_document(data, raster=RasterSettings(passwords=("SªSL\xadprep",)))
    assert doc.pages[0].text.strip() == "Invoice 42"


# ------------------------------------------------------------------------------------------------------ bad inputs


def test_missing_file(tmp_path):
    error = load_error(tmp_path / "nope.pdf")
    assert (error.code, str(error)) == ("not_found", f"{tmp_path / 'nope.pdf'}: no such file")


@pytest.mark.parametrize(
    "name, data, code, words",
    [
        ("empty.pdf", b"", "empty", "empty (0 bytes)"),
        ("page.pdf", b"<!DOCTYPE html><html><body>Login</body></html>", "not_a_pdf", "looks like an HTML page"),
        ("junk.pdf", bytes(range(256)) * 4, "not_a_pdf", "unrecognised binary data"),
        ("page.png", b"<html><body>x</body></html>", "unsupported_type", "an HTML page"),
        ("anim.gif", b"GIF89a\x01\x00\x01\x00", "unsupported_type", "a GIF image"),
        ("cut.pdf", None, "corrupt", "damaged"),
        ("bad.png", b"\x89PNG\r\n\x1a\n" + b"garbage" * 10, "corrupt", "PNG image is damaged"),
        ("cut.jpg", None, "corrupt", "JPEG image is damaged"),
    ],
)
def test_bad_inputs(tmp_path, name, data, code, words):
    if name == "cut.pdf":
        data = make_pdf()[:200]  # header and a few objects, no xref or trailer
    if name == "cut.jpg":
        data = image_bytes(Image.effect_noise((64, 64), 50).convert("RGB"), "JPEG")[:400]
    path = write(tmp_path, name, data)
    error = load_error(path)
    assert (error.code, error.source) == (code, str(path))
    assert words in error.message and error.message.startswith(str(path))


def test_bytes_of_unknown_type():
    error = load_error(b"hello, world")
    assert (error.code, error.message) == (
        "unsupported_type",
        "<bytes>: unsupported file type (plain text); expected PDF, PNG, JPEG, TIFF or WebP",
    )


def test_directory_is_unreadable(tmp_path):
    assert load_error(tmp_path).code == "unreadable"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read a chmod-000 file")
def test_permission_denied(tmp_path):
    path = write(tmp_path, "secret.pdf", make_pdf())
    path.chmod(0)
    try:
        assert load_error(path).code == "unreadable"
    finally:
        path.chmod(0o600)


def test_too_many_bytes(tmp_path):
    data = make_pdf()
    assert load_error(write(tmp_path, "big.pdf", data), max_bytes=len(data) - 1).code == "too_large"
    assert load_error(data, max_bytes=100).code == "too_large"
    assert load_document(data, raster=RasterSettings(max_bytes=len(data))).page_count == 1


def test_png_named_pdf_is_read_as_png(tmp_path):
    path = write(tmp_path, "scan.pdf", image_bytes(Image.new("RGB", (200, 100), "red"), "PNG"))
    doc = load_document(path)
    assert (doc.kind, doc.page_count, doc.warnings) == (
        "image",
        1,
        ("content is PNG, not PDF as the file name says; read as PNG",),
    )
    assert doc.pages[0].image.getpixel((0, 0)) == (255, 0, 0)


# ---------------------------------------------------------------------------------------------------------- images


def test_tiff_frames_are_pages(tmp_path):
    frames = [Image.new("RGB", (300, 200), color) for color in ("red", "green", "blue")]
    data = image_bytes(frames[0], "TIFF", save_all=True, append_images=frames[1:])
    doc = load_document(write(tmp_path, "scan.tif", data))
    assert (doc.kind, doc.page_count, [p.index for p in doc.pages]) == ("image", 3, [0, 1, 2])
    assert [p.image.getpixel((5, 5)) for p in doc.pages] == [(255, 0, 0), (0, 128, 0), (0, 0, 255)]
    assert all((p.image.size, p.width_pt, p.text) == ((300, 200), None, None) for p in doc.pages)
    doc = load_document(data, raster=RasterSettings(pages=parse_pages("3")))
    assert [(p.index, p.image.getpixel((5, 5))) for p in doc.pages] == [(2, (0, 0, 255))]


@pytest.mark.parametrize(
    "image, fmt, pixel",
    [
        (Image.new("RGBA", (64, 64), (255, 0, 0, 0)), "PNG", (255, 255, 255)),  # transparent -> white
        (Image.new("RGBA", (64, 64), (0, 0, 255, 255)), "WEBP", (0, 0, 255)),
        (Image.new("LA", (64, 64), (0, 0)), "PNG", (255, 255, 255)),
        (Image.new("P", (64, 64), 0), "PNG", (255, 255, 255)),  # palette with transparency (set below)
        (Image.new("I;16", (64, 64), 40000), "PNG", (156, 156, 156)),  # 16-bit scaled, not clipped to white
        (Image.new("CMYK", (64, 64), (0, 255, 255, 0)), "JPEG", (254, 0, 0)),
        (Image.new("1", (64, 64), 0), "PNG", (0, 0, 0)),
    ],
)
def test_image_modes_become_rgb(image, fmt, pixel):
    params = {"transparency": 0} if image.mode == "P" else {}
    if fmt == "WEBP":
        params["lossless"] = True
    doc = load_document(image_bytes(image, fmt, **params))
    page = doc.pages[0]
    assert (page.image.mode, page.image.size) == ("RGB", (64, 64))
    assert all(abs(a - b) <= 2 for a, b in zip(page.image.getpixel((10, 10)), pixel, strict=False))


def test_large_jpeg_is_shrunk_to_budget():
    data = image_bytes(Image.new("RGB", (3000, 2000), "white"), "JPEG")
    image = load_document(data).pages[0].image
    assert image.size == (1413, 942)
    assert image.size == target_size(3000, 2000, max_pixels=BUDGET)


def test_exif_orientation_is_applied():
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° clockwise for display
    data = image_bytes(Image.new("RGB", (200, 100), "white"), "JPEG", exif=exif)
    assert load_document(data).pages[0].image.size == (100, 200)


@pytest.mark.parametrize(
    "size, expected, warned",
    [
        ((10, 5), (64, 32), False),  # grown to min_side, never otherwise enlarged
        ((640, 480), (640, 480), False),
        ((20_000, 10), (6400, 32), True),  # 2000:1 -> its left 2000 x 10 part, grown to min_side
    ],
)
def test_image_sizes(size, expected, warned):
    doc = load_document(image_bytes(Image.new("L", size, 128), "PNG"))
    page = doc.pages[0]
    assert (page.image.size, bool(page.warnings)) == (expected, warned)


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
@pytest.mark.parametrize("width, height", [(100_000, 100_000), (12_000, 9_000), (2**31 - 1, 2)])
def test_decompression_bomb_is_too_large(tmp_path, width, height):
    error = load_error(write(tmp_path, "bomb.png", png_claiming(width, height)))
    assert (error.code, error.source) == ("too_large", str(tmp_path / "bomb.png"))


def test_pil_input():
    image = Image.new("RGBA", (50, 40), (0, 128, 0, 255))
    doc = load_document(image)
    digest = hashlib.sha256(image.convert("RGB").tobytes()).hexdigest()
    assert (doc.source, doc.kind, doc.page_count, doc.sha256) == ("<image>", "image", 1, digest)
    assert (doc.pages[0].image.mode, doc.pages[0].image.size) == ("RGB", (50, 40))
    assert image.mode == "RGBA"  # the caller's image is untouched
    assert load_error(image, pages=parse_pages("2")).code == "empty"


# -------------------------------------------------------------------------------------------- shared corpus files


def hostile(name: str) -> Path:
    return shared_path("corpus", "hostile", name)


@pytest.mark.parametrize(
    "name",
    [
        "pypdf__encryption_r4-aes-user-password.pdf",
        "pdfjs__saslprep-r6.pdf",
        "pypdf__encryption_r6-both-passwords.pdf",
        "pdfjs__issue6010_2.pdf",
    ],
)
def test_corpus_encrypted(name):
    path = hostile(name)
    password = json.loads(hostile("MANIFEST.json").read_text(encoding="utf-8"))[name]["password"]
    assert load_error(path).code == "encrypted"
    assert load_error(path, passwords=("not-it",)).code == "wrong_password"
    assert load_document(path, raster=RasterSettings(passwords=(password,))).page_count == 1


def test_corpus_giant_page():
    doc = load_document(hostile("pdfjs__poppler-85140-0.pdf"))
    assert [p.image.size for p in doc.pages] == [(81, 16200)]


def test_corpus_real_invoice_has_text():
    folder = shared_path("corpus", "invoices", "zugferd-corpus")
    doc = load_document(sorted(folder.glob("*.pdf"))[0], raster=RasterSettings(max_pages=1))
    assert doc.pages[0].text and doc.pages[0].image.size[0] * doc.pages[0].image.size[1] <= BUDGET


# ------------------------------------------------------------------------------------------------------------ OCR


def _ocr_settings(mode="auto"):
    from extractor.inputs.ocr import OcrSettings

    return RasterSettings(max_pixels=200_000, ocr=OcrSettings(mode=mode))


def _needs_engine():
    from extractor.inputs.ocr import engine_available

    if not engine_available():
        pytest.skip("rapidocr / onnxruntime not installed")


def test_ocr_is_off_by_default_and_skips_blank_and_text_pages():
    scan = text_pdf(["Rechnung RE-2026-0117"], size=(300, 200), image_only=True)
    assert load_document(scan, raster=RasterSettings(max_pixels=200_000)).pages[0].ocr is None
    blank = load_document(image_bytes(Image.new("RGB", (800, 600), "white"), "PNG"), raster=_ocr_settings())
    assert (blank.pages[0].ocr, blank.pages[0].warnings) == (None, ())
    digital = load_document(text_pdf(["Rechnung RE-2026-0117"], size=(300, 200)), raster=_ocr_settings())
    assert (digital.pages[0].text.strip(), digital.pages[0].ocr) == ("Rechnung RE-2026-0117", None)


def test_ocr_reads_a_scan_under_its_invisible_text_layer_and_prefers_what_it_reads():
    """A scanner's own OCR layer (invisible text over the picture) is read again; a poor one loses to ours."""
    _needs_engine()
    from extractor.inputs.ocrdecide import page_text

    scan = text_pdf(
        ["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"],
        size=(300, 200),
        image_only=True,
        hidden=["Rcchnunq RE-2O26-O1l7", "Gcsamt 1.375,84 EUR"],
    )
    page = load_document(scan, raster=_ocr_settings()).pages[0]
    assert page.text.split() == ["Rcchnunq", "RE-2O26-O1l7", "Gcsamt", "1.375,84", "EUR"]
    assert page.ocr.reason == "invisible_text_layer"
    assert page_text(page.text, page.ocr).source == "ocr"
    visible = text_pdf(["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"], size=(300, 200))
    assert load_document(visible, raster=_ocr_settings()).pages[0].ocr is None  # ordinary text is not


def test_ocr_refuses_absurdly_elongated_pages():
    from PIL import ImageDraw

    from extractor.inputs.ocr import TOO_ELONGATED

    strip = Image.new("RGB", (60, 3000), "white")
    for y in range(0, 3000, 40):
        ImageDraw.Draw(strip).text((5, y), "12,50", fill="black")
    page = load_document(image_bytes(strip, "PNG"), raster=_ocr_settings()).pages[0]
    assert (page.ocr, page.warnings) == (None, (TOO_ELONGATED,))


def test_ocr_boxes_are_relative_to_the_page_image():
    """The OCR render covers the page image's region: a line printed 20 pt from the left and ~18 pt from the top
    of a 300 x 200 pt page has its box there."""
    _needs_engine()
    scan = text_pdf(["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"], size=(300, 200), image_only=True)
    page = load_document(scan, raster=_ocr_settings()).pages[0]
    first = page.ocr.lines[0]
    assert first.text == "Rechnung RE-2026-0117"
    assert abs(first.box[0] - 20 / 300) < 0.02 and abs(first.box[1] - 18 / 200) < 0.03


def test_ocr_of_an_image_follows_its_exif_orientation():
    """A JPEG stored on its side with EXIF orientation 6: the page image and the OCR boxes are upright."""
    _needs_engine()
    from PIL import ImageDraw, ImageFont

    upright = Image.new("RGB", (600, 800), "white")
    ImageDraw.Draw(upright).text((60, 80), "Total 1.375,64 EUR", fill="black", font=ImageFont.load_default(size=36))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise for display
    stored = upright.rotate(90, expand=True)  # 800 x 600, lying on its side
    page = load_document(image_bytes(stored, "JPEG", exif=exif, quality=90), raster=_ocr_settings()).pages[0]
    assert page.image.height > page.image.width
    line = page.ocr.lines[0]
    assert line.text == "Total 1.375,64 EUR"
    assert abs(line.box[0] - 60 / 600) < 0.03 and abs(line.box[1] - 80 / 800) < 0.03
