# SPDX-License-Identifier: Apache-2.0
"""Spark's own reader of one JSON array, for comparison with jsonstream_spark.py.

    spark-submit Examples/spark/multiline_baseline.py [--path P] [--where SQL] \\
        [--select a,b] INPUT OUTPUT_DIR

Reads INPUT with spark.read.option("multiLine", True).json(...), which cannot
split a file: one task reads it whole (twice: once to infer the schema), and
builds the whole array in memory. With --path, the array at that key is
exploded into rows. The rows are filtered (--where) and projected
(--select), then written as JSON Lines parts.
"""
import argparse
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, explode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--path", help="the key of the array (items)")
    parser.add_argument("--where", help="a SQL condition on each element")
    parser.add_argument("--select", help="the members to keep, comma-separated")
    parser.add_argument("input")
    parser.add_argument("output_dir")
    options = parser.parse_args()
    spark = SparkSession.builder.appName("multiLine baseline").getOrCreate()
    started = time.monotonic()
    frame = spark.read.option("multiLine", True).json(options.input)
    if options.path:
        frame = frame.select(explode(col(options.path.lstrip("."))).alias("element")).select("element.*")
    if options.where:
        frame = frame.where(options.where)
    if options.select:
        frame = frame.select(*options.select.split(","))
    frame.write.json(options.output_dir)
    print("multiline_baseline: read and written in %.2f s" % (time.monotonic() - started), file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
