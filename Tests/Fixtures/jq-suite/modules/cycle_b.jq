import "cycle_a" as a;
def f: null;
