"""The page budget in vision tokens, on every family: measured from the model's own processor at load.

Families count image tokens differently: Qwen one token per 32 x 32 px (patch 16, merge 2), Gemma 3 a fixed 256 per
image (resized to 896 x 896), Idefics3 / SmolVLM ``image_seq_len`` per 512-px tile plus a global view, Pixtral one
per 16-px patch of a resized image. Rather than a formula per family, the runner shows the processor a blank probe
page and counts the placeholder tokens it expands to: ``pixels_per_token`` is the probe's pixels over that count,
so ``--vision-tokens N`` asks for about N tokens a page on every family. A processor that gives the same count
whatever the size (``fixed``) resizes every page itself: the budget cannot lower its cost, and pages are rendered
at the probe's size at most.
"""

from __future__ import annotations

from dataclasses import dataclass

PROBE_SIDES = (448, 896)  # two square probe pages: does the count grow with the pixels?
DEFAULT_PIXELS_PER_TOKEN = 32 * 32  # Qwen's; used when a processor cannot be probed (no images: text-only models)


@dataclass(frozen=True)
class VisionBudget:
    """How the processor turns pixels into tokens.

    Attributes:
        pixels_per_token: page pixels per vision token (the page budget's unit).
        tokens: the vision tokens of each probe page (by side length).
        fixed: the count does not depend on the page size (the processor resizes every image itself).
        method: ``patch x merge`` (Qwen-style formula), ``probe`` (measured) or ``default`` (no image tokens seen).
    """

    pixels_per_token: int
    tokens: dict
    fixed: bool = False
    method: str = "probe"

    @property
    def max_pixels(self):
        """Pixels worth rendering a page at: the larger probe's for a fixed-count processor, else None."""
        return PROBE_SIDES[-1] ** 2 if self.fixed else None

    def to_dict(self) -> dict:
        """For doctor and the families bench."""
        return {
            "pixels_per_token": self.pixels_per_token,
            "method": self.method,
            "probe_tokens": {str(k): v for k, v in self.tokens.items()},
            "fixed": self.fixed,
        }


def measure_vision_budget(model, processor, render) -> VisionBudget:
    """Count the vision tokens the processor gives blank probe pages.

    Args:
        model: the mlx-vlm model (its config names the image placeholder ids).
        processor: the mlx-vlm processor.
        render: renders a one-turn prompt with N images: ``render(text, images)``.

    Returns:
        The VisionBudget.
    """
    from PIL import Image

    from extractor.runners.mlx.loop import media_ids, prepare_inputs

    image_processor = getattr(processor, "image_processor", None)
    patch, merge = getattr(image_processor, "patch_size", None), getattr(image_processor, "merge_size", None)
    if isinstance(patch, int) and isinstance(merge, int) and patch > 0 and merge > 0:
        return VisionBudget(pixels_per_token=(patch * merge) ** 2, tokens={}, method="patch x merge")
    media = media_ids(model.config)
    counts = {}
    for side in PROBE_SIDES:
        page = Image.new("RGB", (side, side), "white")
        inputs = prepare_inputs(model, processor, render("Read this page.", 1), (page,))
        counts[side] = sum(1 for t in inputs["input_ids"][0].tolist() if t in media)
    small, large = (counts[s] for s in PROBE_SIDES)
    if large <= 0:
        return VisionBudget(pixels_per_token=DEFAULT_PIXELS_PER_TOKEN, tokens=counts, method="default")
    return VisionBudget(
        pixels_per_token=max(1, round(PROBE_SIDES[-1] ** 2 / large)),
        tokens=counts,
        fixed=large == small,
        method="probe",
    )
