[range(0; .)] | group_by(. % 2)
