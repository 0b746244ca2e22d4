[limit(.; repeat(1))]
