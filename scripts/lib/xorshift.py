# SPDX-License-Identifier: Apache-2.0
"""The deterministic generator of the data scripts (generate-records.py,
generate-shapes.py): xorshift64*, tiny, fast and identical everywhere, so
the same arguments give the same bytes on any machine."""


class Random:
    """xorshift64*."""

    def __init__(self, seed):
        self.state = seed or 1

    def next(self):
        x = self.state
        x ^= (x >> 12) & 0xFFFFFFFFFFFFFFFF
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= (x >> 27) & 0xFFFFFFFFFFFFFFFF
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        return self.next() % n

    def choice(self, items):
        return items[self.below(len(items))]

    def chance(self, percent):
        return self.below(100) < percent
