import "cycle_self" as s;
def f: null;
