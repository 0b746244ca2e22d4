import "cycle_b" as b;
def f: null;
