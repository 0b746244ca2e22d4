// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// The part of jq's library written in jq itself, on top of the Swift
/// built-ins (`_Natives`). Each definition follows the behaviour jq 1.8's
/// manual documents; they are compiled when a program first calls them.
enum _Prelude {
    static let source = #"""
    def halt_error: halt_error(5);
    def error(msg): msg | error;
    def values: select(. != null);
    def nulls: select(. == null);
    def booleans: select(type == "boolean");
    def numbers: select(type == "number");
    def strings: select(type == "string");
    def arrays: select(type == "array");
    def objects: select(type == "object");
    def iterables: select(type | . == "array" or . == "object");
    def scalars: select(type | . != "array" and . != "object");
    def isfinite: type == "number" and (isinfinite | not);
    def normals: select(isnormal);
    def finites: select(isfinite);
    def in(xs): . as $x | xs | has($x);
    def inside(xs): . as $x | xs | contains($x);
    def map_values(f): .[] |= f;
    def del(f): delpaths([path(f)]);
    def with_entries(f): to_entries | map(f) | from_entries;
    def sort_by(f): _sort_by_impl(map([f]));
    def group_by(f): _group_by_impl(map([f]));
    def unique_by(f): _unique_by_impl(map([f]));
    def min_by(f): _min_by_impl(map([f]));
    def max_by(f): _max_by_impl(map([f]));
    def paths: path(..) | select(length > 0);
    def paths(node_filter): path(..|select(node_filter))|select(length > 0);
    def any: any(.[]; .);
    def all: all(.[]; .);
    def any(f): any(.[]; f);
    def all(f): all(.[]; f);
    def any(g; cond): isempty(first(g | cond | select(.))) | not;
    def all(g; cond): isempty(first(g | cond | select(. | not)));
    def nth($n): .[$n];
    def nth($n; g): if $n < 0 then error("nth doesn't support negative indices") else first(skip($n; g)) end;
    def skip($n; g):
      if $n > 0 then foreach g as $item ($n; . - 1; if . < 0 then $item else empty end)
      elif $n == 0 then g
      else error("skip doesn't support negative count") end;
    def first: .[0];
    def last: .[-1];
    def until(cond; update): def _until: if cond then . else (update | _until) end; _until;
    def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
    def combinations:
      if length == 0 then []
      else .[0][] as $x | (.[1:] | combinations) as $rest | [$x] + $rest end;
    def combinations(n): . as $dot | [range(n) | $dot] | combinations;
    def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
    def env: $ENV;
    def index($i): indices($i) | .[0];
    def rindex($i): indices($i) | .[-1:][0];
    def indices($i):
      if type == "array" and ($i | type) == "array" then .[$i]
      elif type == "array" then .[[$i]]
      elif type == "string" and ($i | type) == "string" then _strindices($i)
      else .[$i] end;
    def trimstr($x): ltrimstr($x) | rtrimstr($x);
    def abs: if . < 0 then - . else . end;
    def transpose: [range(0; map(length) | max // 0) as $i | [.[][$i]]];
    def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
    def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
    def todate: todateiso8601;
    def fromdate: fromdateiso8601;
    def match(re; mode): _match_impl(re; mode; false) | .[];
    def match($val):
      ($val | type) as $vt
      | if $vt == "string" then match($val; null)
        elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1])
        elif $vt == "array" and ($val | length) > 0 then match($val[0]; null)
        else error($vt + " not a string or array") end;
    def test(re; mode): _match_impl(re; mode; true);
    def test($val):
      ($val | type) as $vt
      | if $vt == "string" then test($val; null)
        elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1])
        elif $vt == "array" and ($val | length) > 0 then test($val[0]; null)
        else error($vt + " not a string or array") end;
    def capture(re; mods):
      match(re; mods)
      | [.captures[] | select(.name != null) | {key: .name, value: .string}] | from_entries;
    def capture($val):
      ($val | type) as $vt
      | if $vt == "string" then capture($val; null)
        elif $vt == "array" and ($val | length) > 1 then capture($val[0]; $val[1])
        elif $vt == "array" and ($val | length) > 0 then capture($val[0]; null)
        else error($vt + " not a string or array") end;
    def scan($re; $flags):
      match($re; "g" + $flags) | if (.captures | length) > 0 then [.captures[].string] else .string end;
    def scan($re): scan($re; null);
    def splits($re; $flags):
      . as $s
      | foreach (match($re; $flags + "g"), null) as $m
          ({next: 0}; {start: .next, end: $m.offset, next: ($m.offset + $m.length)}; $s[.start:.end]);
    def splits($re): splits($re; null);
    def split($re; $flags): [splits($re; $flags)];
    def sub($re; str; $flags):
      . as $in
      | (reduce match($re; $flags) as $edit
          ({result: [], previous: 0};
            $in[.previous:$edit.offset] as $gap
            | [$edit.captures | map(select(.name != null) | {key: .name, value: .string}) | from_entries | str]
                as $inserts
            | reduce range(0; $inserts | length) as $ix (.; .result[$ix] += $gap + $inserts[$ix])
            | .previous = ($edit.offset + $edit.length))
        | .result[] + $in[.previous:])
        // $in;
    def sub($re; str): sub($re; str; "");
    def gsub($re; str; $flags): sub($re; str; $flags + "g");
    def gsub($re; str): sub($re; str; "g");
    def fromstream(f):
      {x: null, e: false} as $init
      | foreach f as $i ($init;
          if .e then $init else . end
          | if $i | length == 2
            then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
            else setpath(["e"]; $i[0] | length == 1) end;
          if .e then .x else empty end);
    def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; $input[0][$n:]) else empty end;
    def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
    def debug(msg): (msg | debug | empty), .;
    def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
    def INDEX(idx_expr): INDEX(.[]; idx_expr);
    def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
    def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
    def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
    def IN(s): any(s == .; .);
    def IN(src; s): any(src == s; .);
    """#
}

/// The prelude parsed once, its definitions compiled on first use (one
/// library per compilation).
final class _PreludeLibrary {
    /// Parsed by each library that needs it (once per compilation that
    /// calls one of its functions), not kept in a global: the parse is
    /// quick, and nothing outlives the programs that use it.
    private lazy var parsed: [String: _FunctionDefinition] = Self.parse()

    private static func parse() -> [String: _FunctionDefinition] {
        guard let program = try? _Parser.parseProgram(_Prelude.source) else { return [:] }
        var table: [String: _FunctionDefinition] = [:]
        for definition in program.definitions where table["\(definition.name)/\(definition.arity)"] == nil {
            table["\(definition.name)/\(definition.arity)"] = definition
        }
        return table
    }

    private var compiled: [String: _Function] = [:]

    /// The prelude's `name/arity`, compiled at the top level (depth 0).
    func function(_ name: String, arity: Int, compiler: inout _Compiler) throws -> _Function? {
        let key = "\(name)/\(arity)"
        if let function = compiled[key] { return function }
        guard let definition = parsed[key] else { return nil }
        let function = _Function(name: name, arity: arity)
        compiled[key] = function
        try compiler.define(function, definition, _Scope(nil, depth: 0, next: nil), _Level(depth: 0))
        return function
    }

    static var names: [String] { parse().keys.sorted() }
}
