// SPDX-License-Identifier: Apache-2.0
import StreamingJSON
import Testing

@testable import JSONFilter

/// jq 1.8.2's math library and date functions as `_MathLibrary` and
/// `_DateLibrary` compute them, against values recorded from jq 1.8.2.
///
/// Every expected value here was recorded by running the jq 1.8.2 binary
/// (x86-64, glibc 2.36, `LC_ALL=C`, `TZ` unset unless a case sets it) and
/// pasted in as a literal; numbers as jq's `tostring` wrote them, with NaN
/// and the infinities spelled `nan`, `inf`, `-inf` (jq itself prints them as
/// `null` and `±1.7976931348623157e+308`, which would hide the difference).
/// Last-place differences between C libraries can move a few of them.
///
/// Serialized: the local-time test changes the process's `TZ`, so nothing
/// else here runs while it does.
@Suite(.serialized) struct JSONFilterMathDateTests {
    /// One function over `unaryInputs` or `binaryInputs`: jq's results in order.
    struct MathCase: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: [String]
        init(_ name: String, _ expected: [String]) { (self.name, self.expected) = (name, expected) }
        var testDescription: String { name }
    }

    static let unaryInputs: [Double] = [
        -2.5, -1, -0.0, 0, 0.5, 1, 3.7, 1e300, .leastNonzeroMagnitude, .nan, .infinity, -.infinity,
    ]

    static let binaryInputs: [(Double, Double)] = [
        (2, 3), (-2.5, 0.5), (0, -1), (-0.0, 0), (10, 1e308), (5.5, -2), (2.9, 1.5), (-3, 2.5), (1e5, 1),
        (.nan, 0), (1, .nan), (.infinity, -.infinity), (1, .infinity),
    ]

    /// `nan`, `inf`, `-inf` or a number as jq writes it.
    static func parse(_ text: String) -> Double {
        switch text {
        case "nan": .nan
        case "inf": .infinity
        case "-inf": -.infinity
        default: Double(text)!
        }
    }

    /// The numbers in a result: one, or the pair of frexp, modf, lgamma_r.
    static func numbers(_ value: JSONValue) -> [Double] {
        switch value {
        case .number(let number): [number.double]
        case .array(let elements): elements.flatMap(numbers)
        default: []
        }
    }

    /// Bit for bit, so that -0 differs from 0; any NaN matches NaN.
    static func same(_ actual: [Double], _ expected: String) -> Bool {
        let wanted = expected.split(separator: " ").map { parse(String($0)) }
        return actual.count == wanted.count && zip(actual, wanted).allSatisfy {
            $1.isNaN ? $0.isNaN : $0.bitPattern == $1.bitPattern
        }
    }

    // Every function of libm.h taking the input, on ordinary values, signed
    // zeros, a subnormal, NaN and the infinities. gamma is glibc's (lgamma),
    // exp10 is glibc's own (-1 | exp10 is not 0.1), significand keeps the
    // sign, modf is [fraction, integer], lgamma_r is [value, sign].
    @Test(arguments: unaryCases) func unary(_ example: MathCase) throws {
        let function = try #require(_MathLibrary.unary(example.name))
        for (input, expected) in zip(Self.unaryInputs, example.expected) {
            let result = Self.numbers(function(input))
            #expect(Self.same(result, expected), "\(example.name)(\(input)) = \(result), jq: \(expected)")
        }
    }

    // The two-argument ones: jn and yn take the first argument as C int and
    // ldexp the second, scalbln the second as long, all converted as jq's
    // x86-64 build does (NaN and out-of-range values become INT_MIN or
    // LONG_MIN, so jn(nan; 0) is jn(INT_MIN, 0), 0 where jn(0, 0) is 1, and
    // ldexp(10; 1e308) is 0); scalb rejects non-integral exponents and clamps
    // huge ones; nexttoward is nextafter. No case runs jn from INT_MIN with a
    // nonzero x: glibc's recurrence then takes seconds, in jq as here.
    @Test(arguments: binaryCases) func binary(_ example: MathCase) throws {
        let function = try #require(_MathLibrary.binary(example.name))
        for ((a, b), expected) in zip(Self.binaryInputs, example.expected) {
            let result = Self.numbers(function(a, b))
            #expect(Self.same(result, expected), "\(example.name)(\(a); \(b)) = \(result), jq: \(expected)")
        }
    }

    // fma rounds once: 0.1 * 10 - 1 is not 0.
    @Test func fma() throws {
        let function = try #require(_MathLibrary.ternary("fma"))
        let cases: [(Double, Double, Double, String)] = [
            (2, 3, 4, "10"), (0.1, 10, -1, "5.551115123125783e-17"), (1e308, 10, -1e308, "inf"),
            (.infinity, 0, 1, "nan"), (.nan, 1, 2, "nan"), (1, 1, .nan, "nan"), (-0.5, 0, -0.0, "-0"),
            (0.1, 0.1, 0.1, "0.11"), (.leastNonzeroMagnitude, 0.5, 0, "0"),
        ]
        for (a, b, c, expected) in cases {
            let result = Self.numbers(function(a, b, c))
            #expect(Self.same(result, expected), "fma(\(a); \(b); \(c)) = \(result), jq: \(expected)")
        }
        #expect(_MathLibrary.ternary("pow") == nil)
    }

    // The registry: exactly jq 1.8.2's libm.h names (all 61 are in the
    // binary's `builtins`), each found by the lookup of its arity only.
    @Test func names() {
        let registered = _MathLibrary.names.map { "\($0.name)/\($0.arity)" }
        #expect(registered.count == 61)
        #expect(Set(registered) == Set(Self.unaryCases.map { "\($0.name)/0" }
            + Self.binaryCases.map { "\($0.name)/2" } + ["fma/3"]))
        for (name, arity) in _MathLibrary.names {
            #expect((_MathLibrary.unary(name) != nil) == (arity == 0), "\(name)")
            #expect((_MathLibrary.binary(name) != nil) == (arity == 2), "\(name)")
            #expect((_MathLibrary.ternary(name) != nil) == (arity == 3), "\(name)")
        }
        for name in ["abs", "pow10", "significand10", "floor2", "toarray", ""] {
            #expect(_MathLibrary.unary(name) == nil && _MathLibrary.binary(name) == nil)
        }
    }

    // jq 1.8.2's `"a" | sin`: builtin.c's type_error, which cuts the JSON
    // at 29 bytes (25 and `..."` for strings, arrays and objects, backing
    // off to a character boundary), unlike the 11-byte cut of older jq.
    @Test func typeErrors() throws {
        let cases: [(JSONValue, String)] = [
            ("a", #"string ("a") number required"#),
            ("abcdefghijklmnopqrstuvwxyz", #"string ("abcdefghijklmnopqrstuvwxyz") number required"#),
            ("abcdefghijklmnopqrstuvwxyza", #"string ("abcdefghijklmnopqrstuvwxyza") number required"#),
            ("abcdefghijklmnopqrstuvwxyzab", #"string ("abcdefghijklmnopqrstuvwx...") number required"#),
            (["a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]], #"object ({"a":[1,2,3,4,5,6,7,8,9,1...}) number required"#),
            ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], "array ([1,2,3,4,5,6,7,8,9,10,11,...]) number required"),
            (nil, "null (null) number required"),
            (true, "boolean (true) number required"),
            (false, "boolean (false) number required"),
            ([], "array ([]) number required"),
            ([:], "object ({}) number required"),
            ("héllo wörld ünïcode ßtring", #"string ("héllo wörld ünïcode ...") number required"#),
            ("aééééééééééééééééééé", #"string ("aééééééééééé...") number required"#),
            ([.number(JSONNumber(.nan))], "array ([null]) number required"),
            ([.number(JSONNumber(.infinity))], "array ([1.7976931348623157e+308]) number required"),
            ("\u{1}\n\t\"\\", #"string ("\u0001\n\t\"\\") number required"#),
            ("\u{1}\u{1}\u{1}\u{1}\u{1}", #"string ("\u0001\u0001\u0001\u0001...") number required"#),
        ]
        for (value, message) in cases {
            #expect(_MathLibrary.typeError("sin", value).message == message)
            let error = #expect(throws: JSONFilterError.self) { try _MathLibrary.number(value, for: "pow") }
            #expect(error?.message == message)
            #expect(error?.isCompileError == false)
        }
        #expect(try _MathLibrary.number(2.5, for: "pow") == 2.5)
    }

    static let unaryCases: [MathCase] = [
        .init("acos", ["nan", "3.141592653589793", "1.5707963267948966", "1.5707963267948966", "1.0471975511965979",
            "0", "nan", "nan", "1.5707963267948966", "nan", "nan", "nan"]),
        .init("acosh", ["nan", "nan", "nan", "nan", "nan", "0", "1.9826969446812033", "691.4686750787736", "nan",
            "nan", "inf", "nan"]),
        .init("asin", ["nan", "-1.5707963267948966", "-0", "0", "0.5235987755982989", "1.5707963267948966", "nan",
            "nan", "5e-324", "nan", "nan", "nan"]),
        .init("asinh", ["-1.6472311463710958", "-0.881373587019543", "-0", "0", "0.48121182505960347",
            "0.881373587019543", "2.0192606561549606", "691.4686750787736", "5e-324", "nan", "inf", "-inf"]),
        .init("atan", ["-1.1902899496825317", "-0.7853981633974483", "-0", "0", "0.4636476090008061",
            "0.7853981633974483", "1.3068326031691921", "1.5707963267948966", "5e-324", "nan", "1.5707963267948966",
            "-1.5707963267948966"]),
        .init("atanh", ["nan", "-inf", "-0", "0", "0.5493061443340548", "inf", "nan", "nan", "5e-324", "nan", "nan",
            "nan"]),
        .init("cbrt", ["-1.3572088082974532", "-1", "-0", "0", "0.7937005259840998", "1", "1.5466803737720356",
            "1e+100", "1.7031839360032601e-108", "nan", "inf", "-inf"]),
        .init("cos", ["-0.8011436155469337", "0.5403023058681398", "1", "1", "0.8775825618903728",
            "0.5403023058681398", "-0.848100031710408", "-0.5753861119575491", "1", "nan", "nan", "nan"]),
        .init("cosh", ["6.132289479663686", "1.5430806348152437", "1", "1", "1.1276259652063807",
            "1.5430806348152437", "20.23601394326887", "inf", "1", "nan", "inf", "inf"]),
        .init("exp", ["0.0820849986238988", "0.36787944117144233", "1", "1", "1.6487212707001282",
            "2.718281828459045", "40.4473043600674", "inf", "1", "nan", "inf", "0"]),
        .init("exp2", ["0.1767766952966369", "0.5", "1", "1", "1.4142135623730951", "2", "12.99603834169977", "inf",
            "1", "nan", "inf", "0"]),
        .init("floor", ["-3", "-1", "-0", "0", "0", "1", "3", "1e+300", "0", "nan", "inf", "-inf"]),
        .init("j0", ["-0.04838377646819799", "0.7651976865579666", "1", "1", "0.9384698072408129",
            "0.7651976865579666", "-0.39923020337119114", "-7.860673062724093e-151", "1", "nan", "0", "0"]),
        .init("j1", ["-0.49709410246427405", "-0.4400505857449335", "-0", "0", "0.2422684576748739",
            "0.4400505857449335", "0.05383398774546179", "-1.3681360450342481e-151", "0", "nan", "0", "-0"]),
        .init("log", ["nan", "nan", "-inf", "-inf", "-0.6931471805599453", "0", "1.308332819650179",
            "690.7755278982137", "-744.4400719213812", "nan", "inf", "nan"]),
        .init("log10", ["nan", "nan", "-inf", "-inf", "-0.3010299956639812", "0", "0.568201724066995", "300",
            "-323.3062153431158", "nan", "inf", "nan"]),
        .init("log2", ["nan", "nan", "-inf", "-inf", "-1", "0", "1.8875252707415875", "996.5784284662087", "-1074",
            "nan", "inf", "nan"]),
        .init("sin", ["-0.5984721441039565", "-0.8414709848078965", "-0", "0", "0.479425538604203",
            "0.8414709848078965", "-0.5298361409084934", "-0.8178819121159085", "5e-324", "nan", "nan", "nan"]),
        .init("sinh", ["-6.0502044810397875", "-1.1752011936438014", "-0", "0", "0.5210953054937474",
            "1.1752011936438014", "20.21129041679853", "inf", "5e-324", "nan", "inf", "-inf"]),
        .init("sqrt", ["nan", "nan", "-0", "0", "0.7071067811865476", "1", "1.9235384061671346", "1e+150",
            "2.2227587494850775e-162", "nan", "inf", "nan"]),
        .init("tan", ["0.7470222972386603", "-1.5574077246549023", "-0", "0", "0.5463024898437905",
            "1.5574077246549023", "0.6247330752245639", "1.4214488238747245", "5e-324", "nan", "nan", "nan"]),
        .init("tanh", ["-0.9866142981514303", "-0.7615941559557649", "-0", "0", "0.46211715726000974",
            "0.7615941559557649", "0.9987782412811312", "1", "5e-324", "nan", "1", "-1"]),
        .init("tgamma", ["-0.9453087204829419", "nan", "-inf", "inf", "1.772453850905516", "1", "4.170651783796604",
            "inf", "inf", "nan", "inf", "nan"]),
        .init("y0", ["nan", "nan", "-inf", "-inf", "-0.44451873350670656", "0.08825696421567698",
            "0.10607431532035409", "-1.3681360450342481e-151", "-473.9990734230043", "nan", "0", "nan"]),
        .init("y1", ["nan", "nan", "-inf", "-inf", "-1.4714723926702433", "-0.7812128213002887", "0.4166743726838075",
            "7.860673062724093e-151", "-inf", "nan", "0", "nan"]),
        .init("ceil", ["-2", "-1", "-0", "0", "1", "1", "4", "1e+300", "1", "nan", "inf", "-inf"]),
        .init("erf", ["-0.999593047982555", "-0.8427007929497149", "-0", "0", "0.5204998778130465",
            "0.8427007929497149", "0.9999998328489421", "1", "5e-324", "nan", "1", "-1"]),
        .init("erfc", ["1.999593047982555", "1.842700792949715", "1", "1", "0.4795001221869535",
            "0.15729920705028513", "1.6715105790914596e-07", "0", "1", "nan", "0", "2"]),
        .init("exp10", ["0.0031622776601683794", "0.09999999999999999", "1", "1", "3.1622776601683795", "10",
            "5011.872336272725", "inf", "1", "nan", "inf", "0"]),
        .init("expm1", ["-0.9179150013761013", "-0.6321205588285577", "-0", "0", "0.6487212707001282",
            "1.718281828459045", "39.4473043600674", "inf", "5e-324", "nan", "inf", "-1"]),
        .init("fabs", ["2.5", "1", "0", "0", "0.5", "1", "3.7", "1e+300", "5e-324", "nan", "inf", "inf"]),
        .init("gamma", ["-0.05624371649767407", "inf", "inf", "inf", "0.5723649429247001", "0", "1.428072326665388",
            "6.897755278982137e+302", "744.4400719213812", "nan", "inf", "inf"]),
        .init("lgamma", ["-0.05624371649767407", "inf", "inf", "inf", "0.5723649429247001", "0", "1.428072326665388",
            "6.897755278982137e+302", "744.4400719213812", "nan", "inf", "inf"]),
        .init("log1p", ["nan", "-inf", "-0", "0", "0.4054651081081644", "0.6931471805599453", "1.547562508716013",
            "690.7755278982137", "5e-324", "nan", "inf", "nan"]),
        .init("logb", ["1", "0", "-inf", "-inf", "-1", "0", "1", "996", "-1074", "nan", "inf", "inf"]),
        .init("nearbyint", ["-2", "-1", "-0", "0", "0", "1", "4", "1e+300", "0", "nan", "inf", "-inf"]),
        .init("rint", ["-2", "-1", "-0", "0", "0", "1", "4", "1e+300", "0", "nan", "inf", "-inf"]),
        .init("round", ["-3", "-1", "-0", "0", "1", "1", "4", "1e+300", "0", "nan", "inf", "-inf"]),
        .init("significand", ["-1.25", "-1", "-0", "0", "1", "1", "1.85", "1.4932217896051503", "1", "nan", "inf",
            "-inf"]),
        .init("trunc", ["-2", "-1", "-0", "0", "0", "1", "3", "1e+300", "0", "nan", "inf", "-inf"]),
        .init("modf", ["-0.5 -2", "-0 -1", "-0 -0", "0 0", "0.5 0", "0 1", "0.7000000000000002 3", "0 1e+300",
            "5e-324 0", "nan nan", "0 inf", "-0 -inf"]),
        .init("frexp", ["-0.625 2", "-0.5 1", "-0 0", "0 0", "0.5 0", "0.5 1", "0.925 2", "0.7466108948025751 997",
            "0.5 -1073", "nan 0", "inf 0", "-inf 0"]),
        .init("lgamma_r", ["-0.05624371649767407 -1", "inf 1", "inf -1", "inf 1", "0.5723649429247001 1", "0 1",
            "1.428072326665388 1", "6.897755278982137e+302 1", "744.4400719213812 1", "nan 1", "inf 1", "inf 1"]),
    ]

    static let binaryCases: [MathCase] = [
        .init("atan2", ["0.5880026035475675", "-1.373400766945016", "3.141592653589793", "-0", "1e-307",
            "1.9195673303788037", "1.0934509444212246", "-0.8760580505981934", "1.570786326794897", "nan", "nan",
            "2.356194490192345", "0"]),
        .init("hypot", ["3.605551275463989", "2.5495097567963922", "1", "0", "1e+308", "5.852349955359813",
            "3.2649655434629015", "3.905124837953327", "100000.000005", "nan", "nan", "inf", "inf"]),
        .init("pow", ["8", "nan", "inf", "1", "inf", "0.03305785123966942", "4.938522046118656", "nan", "100000", "1",
            "1", "0", "1"]),
        .init("remainder", ["-1", "-0", "0", "nan", "10", "-0.5", "-0.10000000000000009", "-0.5", "0", "nan", "nan",
            "nan", "1"]),
        .init("jn", ["0.4860912605858911", "0.03060402345868264", "0.7651976865579666", "1", "2.470656412079008e-155",
            "-0.007039629755871684", "0.23208767214421472", "-0.21660039103911355", "0", "0", "nan", "0", "0"]),
        .init("yn", ["-0.1604003934849238", "-5.441370837174267", "nan", "-inf", "-7.5866879552418e-155", "nan",
            "-0.932193759762974", "0.7560554967536709", "-inf", "-inf", "nan", "nan", "0"]),
        .init("copysign", ["2", "2.5", "-0", "0", "10", "-5.5", "2.9", "3", "100000", "nan", "1", "-inf", "1"]),
        .init("drem", ["-1", "-0", "0", "nan", "10", "-0.5", "-0.10000000000000009", "-0.5", "0", "nan", "nan", "nan",
            "1"]),
        .init("fdim", ["0", "0", "1", "0", "0", "7.5", "1.4", "0", "99999", "nan", "nan", "inf", "0"]),
        .init("fmax", ["3", "0.5", "0", "-0", "1e+308", "5.5", "2.9", "2.5", "100000", "0", "1", "inf", "inf"]),
        .init("fmin", ["2", "-2.5", "-1", "-0", "10", "-2", "1.5", "-3", "1", "0", "1", "-inf", "1"]),
        .init("fmod", ["2", "-0", "0", "nan", "10", "1.5", "1.4", "-0.5", "0", "nan", "nan", "nan", "1"]),
        .init("nextafter", ["2.0000000000000004", "-2.4999999999999996", "-5e-324", "0", "10.000000000000002",
            "5.499999999999999", "2.8999999999999995", "-2.9999999999999996", "99999.99999999999", "nan", "nan",
            "1.7976931348623157e+308", "1.0000000000000002"]),
        .init("nexttoward", ["2.0000000000000004", "-2.4999999999999996", "-5e-324", "0", "10.000000000000002",
            "5.499999999999999", "2.8999999999999995", "-2.9999999999999996", "99999.99999999999", "nan", "nan",
            "1.7976931348623157e+308", "1.0000000000000002"]),
        .init("scalb", ["16", "nan", "0", "-0", "inf", "1.375", "nan", "nan", "200000", "nan", "nan", "nan", "inf"]),
        .init("scalbln", ["16", "-2.5", "0", "-0", "0", "1.375", "5.8", "-12", "200000", "nan", "0", "inf", "0"]),
        .init("ldexp", ["16", "-2.5", "0", "-0", "0", "1.375", "5.8", "-12", "200000", "nan", "0", "inf", "0"]),
    ]
}
