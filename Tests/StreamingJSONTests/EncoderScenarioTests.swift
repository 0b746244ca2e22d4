// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// The encoder scenarios (classic Codable tutorial cases), one @Test each. Every expected string is
// asserted against our encoder and, where the keys are sorted (Foundation's key
// order is otherwise unspecified), against Foundation's JSONEncoder too — so an
// expectation that is not Foundation's bytes fails on its own.

@Suite struct EncoderScenarioTests {

    /// `value` encodes to `expected` with `setup`; with sorted keys Foundation must agree.
    func expect<T: Encodable>(_ value: T, _ expected: String, _ setup: EncodingSetup = EncodingSetup(),
                              sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let ours = try Enc.ours(value, setup.configure)
            #expect(ours == expected, "ours, \(setup)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("ours threw \(error), \(setup)", sourceLocation: sourceLocation)
        }
        guard setup.sorted else { return }
        do {
            let foundation = try Enc.foundation(value, setup.configure)
            #expect(foundation == expected, "Foundation disagrees with the expectation, \(setup)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("Foundation threw \(error), \(setup)", sourceLocation: sourceLocation)
        }
    }

    static let unsorted = EncodingSetup(sorted: false)
    static let pretty = EncodingSetup(pretty: true)
    static let prettyUnsorted = EncodingSetup(pretty: true, sorted: false)

    // MARK: Models (tutorial shapes)

    enum BeerStyle: String, Codable { case ipa, stout, kolsch }

    struct Beer: Codable, Equatable {
        var name: String
        var abv: Float
        var brewery: String
        var style: BeerStyle
        enum CodingKeys: String, CodingKey {
            case name, abv = "alcohol_by_volume", brewery = "brewery_name", style
        }
    }

    struct BeerList: Codable, Equatable { var beers: [Beer] }

    static let endeavor = Beer(name: "Endeavor", abv: 8.9, brewery: "Saint Arnold", style: .ipa)
    static let guinness = Beer(name: "Guinness Draught", abv: 4.2, brewery: "Guinness", style: .stout)

    // MARK: .prettyPrinted

    @Test func prettyPrinted() {
        expect(Self.endeavor, """
        {
          "alcohol_by_volume" : 8.9,
          "brewery_name" : "Saint Arnold",
          "name" : "Endeavor",
          "style" : "ipa"
        }
        """, Self.pretty)
        // Without sortedKeys: the order of encoding (the synthesized encode(to:) follows CodingKeys).
        expect(Self.endeavor, """
        {
          "name" : "Endeavor",
          "alcohol_by_volume" : 8.9,
          "brewery_name" : "Saint Arnold",
          "style" : "ipa"
        }
        """, Self.prettyUnsorted)
        expect(BeerList(beers: [Self.endeavor, Self.guinness]), """
        {
          "beers" : [
            {
              "alcohol_by_volume" : 8.9,
              "brewery_name" : "Saint Arnold",
              "name" : "Endeavor",
              "style" : "ipa"
            },
            {
              "alcohol_by_volume" : 4.2,
              "brewery_name" : "Guinness",
              "name" : "Guinness Draught",
              "style" : "stout"
            }
          ]
        }
        """, Self.pretty)
    }

    @Test func prettyPrintedEmptyContainers() {
        struct Empties: Encodable {
            var list: [Int] = []
            var map: [String: Int] = [:]
            var nested: [[Int]] = [[]]
            var full = ["k": [String: Bool]()]
        }
        expect(Empties(), """
        {
          "full" : {
            "k" : {

            }
          },
          "list" : [

          ],
          "map" : {

          },
          "nested" : [
            [

            ]
          ]
        }
        """, Self.pretty)
        expect([Int](), "[\n\n]", Self.pretty)
        expect([String: Int](), "{\n\n}", Self.pretty)
        expect([Int](), "[]")
        expect([String: Int](), "{}")
        // A top-level scalar is written alone, pretty or not.
        expect("a", "\"a\"", Self.pretty)
        expect(42, "42", Self.pretty)
    }

    // MARK: .sortedKeys

    @Test func sortedKeys() {
        expect(Self.endeavor, #"{"alcohol_by_volume":8.9,"brewery_name":"Saint Arnold","name":"Endeavor","style":"ipa"}"#)
        expect(Self.endeavor, #"{"name":"Endeavor","alcohol_by_volume":8.9,"brewery_name":"Saint Arnold","style":"ipa"}"#,
               Self.unsorted)
        // UTF-8 byte order: "B" < "a", "～" (EF BD 9E) < "🎉" (F0 …), unlike UTF-16 order.
        let keys: [String: Int] = ["b": 1, "a": 2, "B": 3, "é": 4, "z": 5, "ab": 6, "": 7, "🎉": 8, "\u{FF5E}": 9]
        expect(keys, #"{"":7,"B":3,"a":2,"ab":6,"b":1,"z":5,"é":4,"～":9,"🎉":8}"#)
        // Int-keyed dictionaries sort by the keys' text.
        expect([10: "a", 9: "b", -2: "c"], #"{"-2":"c","10":"a","9":"b"}"#)
        // Nested objects are sorted too.
        expect(["z": ["y": 1, "x": 2], "a": ["d": 3, "c": 4]], #"{"a":{"c":4,"d":3},"z":{"x":2,"y":1}}"#)
    }

    @Test func unsortedKeysComeOutInEncodingOrder() {
        struct Ordered: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: EncKey.self)
                for (index, key) in ["zebra", "apple", "mango", "Banana", "ähm"].enumerated() {
                    try container.encode(index, forKey: EncKey(key))
                }
            }
        }
        expect(Ordered(), #"{"zebra":0,"apple":1,"mango":2,"Banana":3,"ähm":4}"#, Self.unsorted)
        expect(Ordered(), #"{"Banana":3,"apple":1,"mango":2,"zebra":0,"ähm":4}"#)
    }

    // MARK: encodeIfPresent vs encode(nil)

    @Test func encodeIfPresentOmitsTheKeyEncodeNilWritesNull() {
        struct Options: Encodable {
            var present: Int?
            var nullable: Int?
            enum CodingKeys: CodingKey { case present, nullable }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(present, forKey: .present)
                try container.encode(nullable, forKey: .nullable)
            }
        }
        expect(Options(), #"{"nullable":null}"#)
        expect(Options(present: 1, nullable: 2), #"{"nullable":2,"present":1}"#)
        expect(Options(present: 1, nullable: 2), #"{"present":1,"nullable":2}"#, Self.unsorted)
        // encodeNil and the synthesized conformance (which uses encodeIfPresent).
        struct Product: Encodable { var name: String; var points: Int; var description: String? }
        expect(Product(name: "Banana", points: 200, description: nil), #"{"name":"Banana","points":200}"#)
        expect(Product(name: "Pear", points: 250, description: "A ripe pear."),
               #"{"description":"A ripe pear.","name":"Pear","points":250}"#)
        struct Nils: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: EncKey.self)
                try keyed.encodeNil(forKey: "a")
                var list = keyed.nestedUnkeyedContainer(forKey: "b")
                try list.encodeNil()
                try list.encode(Int?.none)
                try list.encode(Int?.some(3))
            }
        }
        expect(Nils(), #"{"a":null,"b":[null,null,3]}"#)
        expect([Int?.none, 1], "[null,1]")
        expect(Int?.none, "null")
    }

    // MARK: nestedUnkeyedContainer writing transformed values

    struct BottledBeer: Codable, Equatable {
        var name: String
        var bottleSizes: [Float]
        enum CodingKeys: String, CodingKey { case name, bottleSizes = "bottle_sizes" }

        init(name: String, bottleSizes: [Float]) { self.name = name; self.bottleSizes = bottleSizes }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            var sizes = try container.nestedUnkeyedContainer(forKey: .bottleSizes)
            bottleSizes = []
            while !sizes.isAtEnd { bottleSizes.append(try sizes.decode(Float.self)) }
        }

        /// Sizes are written rounded to whole ounces.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            var sizes = container.nestedUnkeyedContainer(forKey: .bottleSizes)
            for size in bottleSizes { try sizes.encode(size.rounded()) }
        }
    }

    @Test func nestedUnkeyedContainerWritesTransformedValues() throws {
        let beer = BottledBeer(name: "Endeavor", bottleSizes: [12.3, 16.8, 22, 0.4])
        expect(beer, #"{"bottle_sizes":[12,17,22,0],"name":"Endeavor"}"#)
        expect(beer, #"{"name":"Endeavor","bottle_sizes":[12,17,22,0]}"#, Self.unsorted)
        expect(BottledBeer(name: "x", bottleSizes: []), #"{"bottle_sizes":[],"name":"x"}"#)
        // Decoding our output gives the rounded sizes.
        let back = try StreamingJSONDecoder().decode(BottledBeer.self, from: StreamingJSONEncoder().encode(beer))
        #expect(back == BottledBeer(name: "Endeavor", bottleSizes: [12, 17, 22, 0]))
    }

    // MARK: nestedContainer: a flat struct written as nested JSON

    struct FlatBeer: Codable, Equatable {
        var name: String
        var style: BeerStyle
        var abv: Double
        enum CodingKeys: String, CodingKey { case name, info }
        enum InfoKeys: String, CodingKey { case style, abv }

        init(name: String, style: BeerStyle, abv: Double) { self.name = name; self.style = style; self.abv = abv }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            let info = try container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
            style = try info.decode(BeerStyle.self, forKey: .style)
            abv = try info.decode(Double.self, forKey: .abv)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            var info = container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
            try info.encode(style, forKey: .style)
            try info.encode(abv, forKey: .abv)
        }
    }

    @Test func nestedContainerFlatteningInReverse() throws {
        let beer = FlatBeer(name: "Lawnmower", style: .kolsch, abv: 4.9)
        expect(beer, #"{"info":{"abv":4.9,"style":"kolsch"},"name":"Lawnmower"}"#)
        expect(beer, #"{"name":"Lawnmower","info":{"style":"kolsch","abv":4.9}}"#, Self.unsorted)
        expect(beer, """
        {
          "info" : {
            "abv" : 4.9,
            "style" : "kolsch"
          },
          "name" : "Lawnmower"
        }
        """, Self.pretty)
        #expect(try StreamingJSONDecoder().decode(FlatBeer.self, from: StreamingJSONEncoder().encode(beer)) == beer)
    }

    // MARK: superEncoder() and superEncoder(forKey:)

    class Person: Codable {
        var name: String
        init(name: String) { self.name = name }
        private enum CodingKeys: String, CodingKey { case name }
    }

    final class Employee: Person {
        var employeeID: String
        private enum CodingKeys: String, CodingKey { case employeeID = "emp_id" }
        init(name: String, employeeID: String) { self.employeeID = employeeID; super.init(name: name) }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decode(String.self, forKey: .employeeID)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(employeeID, forKey: .employeeID)
            try super.encode(to: container.superEncoder())
        }
    }

    final class KeyedEmployee: Person {
        var employeeID: String
        private enum CodingKeys: String, CodingKey { case employeeID = "emp_id", person }
        init(name: String, employeeID: String) { self.employeeID = employeeID; super.init(name: name) }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decode(String.self, forKey: .employeeID)
            try super.init(from: container.superDecoder(forKey: .person))
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(employeeID, forKey: .employeeID)
            try super.encode(to: container.superEncoder(forKey: .person))
        }
    }

    @Test func superEncoderWritesUnderSuper() throws {
        let employee = Employee(name: "Ann", employeeID: "E-1")
        expect(employee, #"{"emp_id":"E-1","super":{"name":"Ann"}}"#)
        expect(employee, #"{"emp_id":"E-1","super":{"name":"Ann"}}"#, Self.unsorted)
        let back = try StreamingJSONDecoder().decode(Employee.self, from: StreamingJSONEncoder().encode(employee))
        #expect(back.name == "Ann" && back.employeeID == "E-1")

        // A superEncoder that gets a single value, and one that is never written.
        struct Odd: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: EncKey.self)
                var single = container.superEncoder().singleValueContainer()
                try single.encode(5)
                _ = container.superEncoder(forKey: "unused")
                try container.encode(1, forKey: "a")
            }
        }
        expect(Odd(), #"{"a":1,"super":5,"unused":{}}"#)
        expect(Odd(), #"{"super":5,"unused":{},"a":1}"#, Self.unsorted)
    }

    @Test func superEncoderForKey() throws {
        let employee = KeyedEmployee(name: "Bob", employeeID: "E-2")
        expect(employee, #"{"emp_id":"E-2","person":{"name":"Bob"}}"#)
        expect(employee, #"{"emp_id":"E-2","person":{"name":"Bob"}}"#, Self.unsorted)
        expect(employee, """
        {
          "emp_id" : "E-2",
          "person" : {
            "name" : "Bob"
          }
        }
        """, Self.pretty)
        let back = try StreamingJSONDecoder().decode(KeyedEmployee.self, from: StreamingJSONEncoder().encode(employee))
        #expect(back.name == "Bob" && back.employeeID == "E-2")
    }

    // MARK: Dynamic keys (scenario 18: GroceryStore keyed by product name)

    struct GroceryStore: Codable, Equatable {
        struct Product: Equatable {
            var name: String
            var points: Int
            var description: String?
        }
        struct ProductKey: CodingKey {
            var stringValue: String
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
            static let points = ProductKey(stringValue: "points")!
            static let description = ProductKey(stringValue: "description")!
        }

        var products: [Product]
        init(products: [Product]) { self.products = products }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ProductKey.self)
            for product in products {
                let nameKey = ProductKey(stringValue: product.name)!
                var productContainer = container.nestedContainer(keyedBy: ProductKey.self, forKey: nameKey)
                try productContainer.encode(product.points, forKey: .points)
                try productContainer.encode(product.description, forKey: .description)
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ProductKey.self)
            products = []
            for key in container.allKeys {
                let product = try container.nestedContainer(keyedBy: ProductKey.self, forKey: key)
                products.append(Product(name: key.stringValue,
                                        points: try product.decode(Int.self, forKey: .points),
                                        description: try product.decodeIfPresent(String.self, forKey: .description)))
            }
        }
    }

    @Test func dynamicKeysGroceryStore() throws {
        let store = GroceryStore(products: [
            .init(name: "Banana", points: 200, description: "A banana grown in Ecuador."),
            .init(name: "Orange", points: 100, description: nil),
            .init(name: "Äpfel/Birnen", points: 5, description: "\"Obst\""),
        ])
        expect(store, #"{"Banana":{"description":"A banana grown in Ecuador.","points":200},"Orange":{"description":null,"points":100},"Äpfel\/Birnen":{"description":"\"Obst\"","points":5}}"#)
        expect(store, #"{"Banana":{"points":200,"description":"A banana grown in Ecuador."},"Orange":{"points":100,"description":null},"Äpfel\/Birnen":{"points":5,"description":"\"Obst\""}}"#,
               Self.unsorted)
        // Unsorted output keeps the products' order, so the round trip is exact.
        #expect(try StreamingJSONDecoder().decode(GroceryStore.self, from: StreamingJSONEncoder().encode(store)) == store)
    }

    // MARK: Date strategies

    struct Stamp: Codable, Equatable { var date: Date }
    /// 2017-11-13T14:30:15.75Z
    static let stamp = Stamp(date: Date(timeIntervalSince1970: 1_510_583_415.75))

    @Test func dateStrategies() throws {
        func with(_ strategy: StreamingJSONEncoder.DateEncodingStrategy, _ foundation: JSONEncoder.DateEncodingStrategy,
                  _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                #expect(try Enc.ours(Self.stamp) { $0.dateEncodingStrategy = strategy; $0.outputFormatting = .sortedKeys } == expected,
                        sourceLocation: sourceLocation)
                #expect(try Enc.foundation(Self.stamp) { $0.dateEncodingStrategy = foundation; $0.outputFormatting = .sortedKeys } == expected,
                        "Foundation disagrees with the expectation", sourceLocation: sourceLocation)
            } catch {
                Issue.record("threw \(error)", sourceLocation: sourceLocation)
            }
        }
        with(.deferredToDate, .deferredToDate, #"{"date":532276215.75}"#)
        with(.secondsSince1970, .secondsSince1970, #"{"date":1510583415.75}"#)
        with(.millisecondsSince1970, .millisecondsSince1970, #"{"date":1510583415750}"#)
        with(.iso8601, .iso8601, #"{"date":"2017-11-13T14:30:15Z"}"#)
        let monthDay = Enc.formatter("MMM-dd-yyyy")
        with(.formatted(monthDay), .formatted(monthDay), #"{"date":"Nov-13-2017"}"#)
        let zoned = DateFormatter()
        zoned.locale = Locale(identifier: "en_US_POSIX")
        zoned.timeZone = TimeZone(secondsFromGMT: 8 * 3600)!
        zoned.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let custom: @Sendable (Date, any Encoder) throws -> Void = { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(zoned.string(from: date))
        }
        with(.custom(custom), .custom(custom), #"{"date":"2017-11-13 22:30:15 +0800"}"#)
        // A custom closure that writes nothing: an empty object, also at the top level.
        with(.custom { _, _ in }, .custom { _, _ in }, #"{"date":{}}"#)
        do {
            #expect(try Enc.foundation(Self.stamp.date) { $0.dateEncodingStrategy = .custom { _, _ in } } == "{}")
            #expect(try Enc.ours(Self.stamp.date) { $0.dateEncodingStrategy = .custom { _, _ in } } == "{}")
        } catch {
            Issue.record("a top-level Date whose .custom closure writes nothing: \(error)")
        }
        // A custom closure that writes a keyed container.
        with(.custom(EncodingSetup.customDateKeyed), .custom(EncodingSetup.customDateKeyed),
             #"{"date":{"seconds":1510583415.75,"zoneName":"UTC\/Z"}}"#)
        // Dates inside arrays and dictionaries, and at the top level.
        expect([Self.stamp.date, Date(timeIntervalSince1970: 0)], #"["2017-11-13T14:30:15Z","1970-01-01T00:00:00Z"]"#,
               EncodingSetup(date: .iso8601))
        expect(["when": Date(timeIntervalSince1970: 0.5)], #"{"when":500}"#, EncodingSetup(date: .milliseconds))
        expect(Date(timeIntervalSinceReferenceDate: -1), "-1")
    }

    // MARK: Data strategies

    struct Blob: Codable, Equatable { var name: String; var payload: Data }

    @Test func dataStrategies() {
        let blob = Blob(name: "b", payload: Data([0, 1, 2, 250, 255]))
        expect(blob, #"{"name":"b","payload":"AAEC+v8="}"#, EncodingSetup(data: .base64))
        expect(blob, #"{"name":"b","payload":[0,1,2,250,255]}"#, EncodingSetup(data: .deferred))
        expect(blob, #"{"name":"b","payload":"000102faff"}"#, EncodingSetup(data: .customHex))
        expect(blob, #"{"name":"b","payload":[5,127,122,-126,-127,-128]}"#, EncodingSetup(data: .customUnkeyed))
        expect(blob, #"{"name":"b","payload":{}}"#, EncodingSetup(data: .customNothing))
        expect(Data([1]), "{}", EncodingSetup(data: .customNothing))  // also at the top level (Foundation)
        // The default is base64, whose "/" is escaped unless told otherwise.
        expect(Data([0, 1, 255]), #""AAH\/""#)
        expect(Data([0, 1, 255]), #""AAH/""#, EncodingSetup(noSlashes: true))
        expect(Data(), #""""#)
        expect(Data(), "[]", EncodingSetup(data: .deferred))
    }

    // MARK: Non-conforming floats

    @Test func floatStrategies() throws {
        struct Numbers: Encodable { var a: Float; var b: Float; var c: Float }
        struct Doubles: Encodable { var a: Double; var b: Double; var c: Double }
        let strings = StreamingJSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let foundationStrings = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let expected = #"{"a":"NaN","b":"+Infinity","c":"-Infinity"}"#
        let floats = Numbers(a: .nan, b: .infinity, c: -.infinity)
        let doubles = Doubles(a: .nan, b: .infinity, c: -.infinity)
        #expect(try Enc.ours(floats) { $0.nonConformingFloatEncodingStrategy = strings } == expected)
        #expect(try Enc.ours(doubles) { $0.nonConformingFloatEncodingStrategy = strings } == expected)
        #expect(try Enc.foundation(doubles) {
            $0.nonConformingFloatEncodingStrategy = foundationStrings
            $0.outputFormatting = .sortedKeys
        } == expected)
        // Finite values are untouched by the strategy.
        #expect(try Enc.ours(Doubles(a: 1.5, b: -0.0, c: 1e300)) { $0.nonConformingFloatEncodingStrategy = strings }
                == #"{"a":1.5,"b":-0,"c":1e+300}"#)

        // .throw (the default): invalidValue whose path points at the value.
        let error = Enc.encodingError { _ = try StreamingJSONEncoder().encode(floats) }
        #expect(Enc.invalidValuePath(error) == ["a"])
        let second = Enc.encodingError { _ = try StreamingJSONEncoder().encode(Doubles(a: 1, b: .infinity, c: 0)) }
        #expect(Enc.invalidValuePath(second) == ["b"])
        let nested = Enc.encodingError { _ = try StreamingJSONEncoder().encode(["values": [1, 2, -Double.infinity]]) }
        #expect(Enc.invalidValuePath(nested) == ["values", "[2]"])
        let foundationNested = Enc.encodingError { _ = try JSONEncoder().encode(["values": [1, 2, -Double.infinity]]) }
        #expect(Enc.invalidValuePath(foundationNested) == ["values", "[2]"])
        let top = Enc.encodingError { _ = try StreamingJSONEncoder().encode(Float.nan) }
        #expect(Enc.invalidValuePath(top) == [])
    }

    // MARK: Subclass encode(to:) override that keeps subclass fields

    class Drink: Encodable {
        var type: String
        var description: String
        init(type: String, description: String) { self.type = type; self.description = description }
        private enum CodingKeys: String, CodingKey { case type, description }
    }

    /// Without an override only the superclass's fields are written (what the tutorial warns about).
    final class ForgetfulBeer: Drink {
        var alcoholContent = "5%"
    }

    final class DrinkBeer: Drink {
        var alcoholContent: String
        private enum CodingKeys: String, CodingKey { case alcoholContent = "alcohol_content" }
        init(description: String, alcoholContent: String) {
            self.alcoholContent = alcoholContent
            super.init(type: "beer", description: description)
        }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(alcoholContent, forKey: .alcoholContent)
        }
    }

    @Test func subclassOverrideKeepsSubclassFields() {
        let beer = DrinkBeer(description: "Pale & hoppy", alcoholContent: "5%")
        expect(beer, #"{"alcohol_content":"5%","description":"Pale & hoppy","type":"beer"}"#)
        expect(beer, #"{"type":"beer","description":"Pale & hoppy","alcohol_content":"5%"}"#, Self.unsorted)
        expect(ForgetfulBeer(type: "beer", description: "x"), #"{"description":"x","type":"beer"}"#)
        // Through the superclass type: dynamic dispatch picks the override.
        let drinks: [Drink] = [Drink(type: "water", description: "Still"), beer]
        expect(drinks, #"[{"description":"Still","type":"water"},{"alcohol_content":"5%","description":"Pale & hoppy","type":"beer"}]"#)
        expect(["drinks": drinks], """
        {
          "drinks" : [
            {
              "description" : "Still",
              "type" : "water"
            },
            {
              "alcohol_content" : "5%",
              "description" : "Pale & hoppy",
              "type" : "beer"
            }
          ]
        }
        """, Self.pretty)
    }
}
