# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/compare and scripts/compare-shapes: the datasets of the
# shapes benchmark (scripts/generate-shapes.py), each generated once
# (deterministic: same bytes every time) into the data directory, through a
# temporary name so that an interrupted generation is not taken for a dataset.
#
#   generate_shapes DIR     fills the array SHAPE_ARGS with --shape NAME=PATH
#                           arguments for scripts/lib/compare.py
#
# SHAPES_SIZE (200MB): the size of each dataset; another size is another file.

SHAPES=(twitter citm canada github logs)
SHAPE_ARGS=()

generate_shapes() {
    local data=$1 size=${SHAPES_SIZE:-200MB} shape file
    SHAPE_ARGS=()
    for shape in "${SHAPES[@]}"; do
        case "$shape" in
            github|logs) file="$data/shape-$shape-$size.jsonl" ;;
            *) file="$data/shape-$shape-$size.json" ;;
        esac
        if [ ! -s "$file" ]; then
            echo "generating $file ..." >&2
            scripts/generate-shapes.py --shape "$shape" --size "$size" --out "$file.part" || return 1
            mv "$file.part" "$file"
        fi
        SHAPE_ARGS+=(--shape "$shape=$file")
    done
}
