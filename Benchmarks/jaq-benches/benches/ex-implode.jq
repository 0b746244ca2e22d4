[limit(.; repeat("a"))] | add | explode | implode
