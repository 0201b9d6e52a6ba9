#!/usr/bin/env bash
# The web app's icons (manifest.webmanifest) from favicon.svg: 192 and 512 px PNGs, and
# icon-maskable.svg, the heart inside the safe zone of a full-bleed background (a launcher
# may cut any shape out of it). Needs rsvg-convert (apt-get install librsvg2-bin).
#   bash scripts/make_icons.sh
set -euo pipefail
cd "$(dirname "$0")/../Sources/HeartworkServer/Resources/static"
for size in 192 512; do
  rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio favicon.svg --output "icon-$size.png"
done
# The maskable one: favicon.svg's drawing at 60 % of the side, centred (the safe zone is the
# middle 80 % circle), on white.
heart="$(sed -e 's/^<svg[^>]*>//' -e 's#</svg>$##' favicon.svg)"
cat > icon-maskable.svg <<SVG
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#ffffff"/><g transform="translate(12.8 12.8) scale(.6)">${heart}</g></svg>
SVG
rsvg-convert --width 512 --height 512 icon-maskable.svg --output icon-maskable-512.png
ls -l icon-*.png icon-maskable.svg
