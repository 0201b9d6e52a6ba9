#!/usr/bin/env python3
"""Renders the FDA's sample Nutrition Facts label (the text NutritionLabelTests types) as a
photo-like PNG for the OCR test of `heartwork food-label` (Tests/HeartworkCLITests/Fixtures).

    pip install pillow && python3 scripts/make_label_image.py
"""
import pathlib
from PIL import Image, ImageDraw, ImageFont

LINES = ["Nutrition Facts", "8 servings per container", "Serving size 2/3 cup (55g)", "Amount per serving", "Calories 230",
         "% Daily Value*", "Total Fat 8g 10%", "Saturated Fat 1g 5%", "Trans Fat 0g", "Cholesterol 0mg 0%", "Sodium 160mg 7%",
         "Total Carbohydrate 37g 13%", "Dietary Fiber 4g 14%", "Total Sugars 12g", "Includes 10g Added Sugars 20%", "Protein 3g"]
OUT = pathlib.Path(__file__).resolve().parents[1] / "Tests/HeartworkCLITests/Fixtures/fda-label.png"

font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 30)
bold = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 40)
image = Image.new("L", (760, 80 + 46 * len(LINES)), 255)
draw = ImageDraw.Draw(image)
y = 30
for index, line in enumerate(LINES):
    draw.text((40, y), line, fill=0, font=bold if index == 0 else font)
    y += 56 if index == 0 else 46
image.save(OUT, optimize=True)
print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
