// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Class hierarchies: a superclass decoded through superDecoder(), and an array
// whose elements are decoded as the subclass their "type" member names.
// (Helpers and the shared Beer models are in CodableScenarioTests.swift.)

extension CodableScenarioTests {
    // MARK: Class inheritance through superDecoder() and superDecoder(forKey:)

    @Test func subclassDecodesItsSuperclassThroughSuperDecoder() throws {
        // superDecoder(): the superclass is under "super".
        // (Errors are recorded here rather than thrown, so the superDecoder(forKey:) part still runs.)
        let json = #"{"super": {"name": "Joe"}, "emp_id": "emp123"}"#
        do {
            let employee = try Self.streaming(Employee.self, json)
            #expect(employee.name == "Joe")
            #expect(employee.employeeID == "emp123")
            #expect(employee.decodedAt == ["super"])
        } catch {
            Issue.record(error, "superDecoder() on {\"super\": {…}} with a CodingKeys enum that has no \"super\" case")
        }
        let reference = try Self.foundation(Employee.self, json)
        #expect(reference.name == "Joe")
        #expect(reference.employeeID == "emp123")
        #expect(reference.decodedAt == ["super"])

        // superDecoder(forKey: .person).
        let keyedJSON = #"{"person": {"name": "Joe"}, "emp_id": "emp123"}"#
        let keyed = try Self.streaming(KeyedEmployee.self, keyedJSON)
        #expect(keyed.name == "Joe")
        #expect(keyed.employeeID == "emp123")
        #expect(keyed.decodedAt == ["person"])
        let keyedReference = try Self.foundation(KeyedEmployee.self, keyedJSON)
        #expect(keyedReference.name == keyed.name)
        #expect(keyedReference.employeeID == keyed.employeeID)
        #expect(keyedReference.decodedAt == keyed.decodedAt)

        // In a streamed root array the super decoder's path starts with the element index;
        // optional fields may be null or absent.
        let array = """
        [
          {"person": {"name": "Joe"}, "emp_id": "emp123"},
          {"emp_id": null, "person": {"name": null}},
          {"person": {}}
        ]
        """
        var streamed: [KeyedEmployee] = []
        try StreamingJSONDecoder().elements(of: KeyedEmployee.self, from: Self.data(array)).forEach { streamed.append($0) }
        #expect(streamed.count == 3)
        #expect(streamed.map(\.name) == ["Joe", nil, nil])
        #expect(streamed.map(\.employeeID) == ["emp123", nil, nil])
        #expect(streamed.map(\.decodedAt) == [["[0]", "person"], ["[1]", "person"], ["[2]", "person"]])
        let whole = try Self.streaming([KeyedEmployee].self, array)
        #expect(whole.map(\.name) == ["Joe", nil, nil])
        #expect(whole.map(\.employeeID) == ["emp123", nil, nil])
        #expect(whole.map(\.decodedAt) == [["[0]", "person"], ["[1]", "person"], ["[2]", "person"]])

        // No "super" key: the super decoder holds null, so asking it for a keyed container fails there.
        let noSuper = #"{"emp_id": "emp123"}"#
        let expected = ErrorSummary(kind: "valueNotFound", path: ["super"])
        #expect(Self.errorSummary { _ = try Self.streaming(Employee.self, noSuper) }.withoutType == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(Employee.self, noSuper) }.withoutType == expected)
    }

    // MARK: Heterogeneous array: peek at "type" through a copied unkeyed container

    @Test func heterogeneousArrayDecodedByPeekingAtEachType() throws {
        let elements = """
        [
            {
                "type": "water",
                "description": "All natural"
            },
            {
                "type": "orange_juice",
                "description": "Best drank with breakfast"
            },
            {
                "type": "beer",
                "description": "An alcoholic beverage, best drunk on fridays after work",
                "alcohol_content": "5%"
            }
        ]
        """
        func check(_ drinks: [Drink], sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(drinks.count == 3, sourceLocation: sourceLocation)
            guard drinks.count == 3 else { return }
            #expect(ObjectIdentifier(type(of: drinks[0])) == ObjectIdentifier(Drink.self), sourceLocation: sourceLocation)
            #expect(drinks[0].type == "water", sourceLocation: sourceLocation)
            #expect(drinks[0].description == "All natural", sourceLocation: sourceLocation)
            #expect(ObjectIdentifier(type(of: drinks[1])) == ObjectIdentifier(Drink.self), sourceLocation: sourceLocation)
            #expect(drinks[1].type == "orange_juice", sourceLocation: sourceLocation)
            #expect(drinks[1].description == "Best drank with breakfast", sourceLocation: sourceLocation)
            #expect(ObjectIdentifier(type(of: drinks[2])) == ObjectIdentifier(DrinkBeer.self), sourceLocation: sourceLocation)
            #expect(drinks[2].type == "beer", sourceLocation: sourceLocation)
            #expect(drinks[2].description == "An alcoholic beverage, best drunk on fridays after work",
                    sourceLocation: sourceLocation)
            #expect((drinks[2] as? DrinkBeer)?.alcoholContent == "5%", sourceLocation: sourceLocation)
        }

        // {"drinks": [...]}: the array is under a key.
        let wrapped = "{\"drinks\": \(elements)}"
        check(try Self.streaming(Drinks.self, wrapped).drinks)
        check(try Self.foundation(Drinks.self, wrapped).drinks)

        // A root-level array read by a custom root type through decoder.unkeyedContainer()
        // (the streamed, incremental container).
        check(try Self.streaming(RootDrinks.self, elements).drinks)
        check(try Self.foundation(RootDrinks.self, elements).drinks)

        // Longer, so the peeking copy trails the original across many elements.
        let many = "[" + (0..<200).map { index in
            index % 3 == 2
                ? #"{"type": "beer", "description": "Beer \#(index)", "alcohol_content": "\#(index % 10)%"}"#
                : #"{"description": "Water \#(index)", "type": "water"}"#
        }.joined(separator: ",\n") + "]"
        let drinks = try Self.streaming(RootDrinks.self, many).drinks
        #expect(drinks.count == 200)
        for (index, drink) in drinks.enumerated() {
            if index % 3 == 2 {
                #expect(drink.type == "beer")
                #expect(drink.description == "Beer \(index)")
                #expect((drink as? DrinkBeer)?.alcoholContent == "\(index % 10)%")
            } else {
                #expect(ObjectIdentifier(type(of: drink)) == ObjectIdentifier(Drink.self))
                #expect(drink.type == "water")
                #expect(drink.description == "Water \(index)")
            }
        }
        let wrappedMany = try Self.streaming(Drinks.self, "{\"drinks\": \(many)}").drinks
        #expect(wrappedMany.map(\.description) == drinks.map(\.description))
        #expect(wrappedMany.map { $0 is DrinkBeer } == drinks.map { $0 is DrinkBeer })

        // Empty arrays.
        #expect(try Self.streaming(RootDrinks.self, "[]").drinks.isEmpty)
        #expect(try Self.streaming(Drinks.self, #"{"drinks": []}"#).drinks.isEmpty)

        // An unknown type: the peeked enum fails with the element's path.
        let unknown = #"[{"type": "water", "description": "x"}, {"type": "milk", "description": "y"}]"#
        let expected = ErrorSummary(kind: "dataCorrupted", path: ["[1]", "type"])
        #expect(Self.errorSummary { _ = try Self.streaming(RootDrinks.self, unknown) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(RootDrinks.self, unknown) } == expected)
        // A beer without its alcohol content.
        let noAlcohol = #"{"drinks": [{"type": "beer", "description": "y"}]}"#
        let missing = ErrorSummary(kind: "keyNotFound", key: "alcohol_content", path: ["drinks", "[0]"])
        #expect(Self.errorSummary { _ = try Self.streaming(Drinks.self, noAlcohol) } == missing)
        #expect(Self.errorSummary { _ = try Self.foundation(Drinks.self, noAlcohol) } == missing)
    }
}

// MARK: - Models (nested, so they never clash with other test files)

extension CodableScenarioTests {
    private class Person: Decodable {
        var name: String?
        /// The coding path of the decoder this Person was decoded from.
        let decodedAt: [String]

        private enum CodingKeys: String, CodingKey {
            case name
        }

        required init(from decoder: Decoder) throws {
            decodedAt = CodableScenarioTests.path(decoder.codingPath)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
        }
    }

    /// The superclass is decoded from `superDecoder()`, i.e. the "super" key.
    private final class Employee: Person {
        var employeeID: String?

        private enum CodingKeys: String, CodingKey {
            case employeeID = "emp_id"
        }

        required init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decodeIfPresent(String.self, forKey: .employeeID)
            try super.init(from: container.superDecoder())
        }
    }

    /// The superclass is decoded from `superDecoder(forKey: .person)`.
    private final class KeyedEmployee: Person {
        var employeeID: String?

        private enum CodingKeys: String, CodingKey {
            case employeeID = "emp_id"
            case person
        }

        required init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decodeIfPresent(String.self, forKey: .employeeID)
            try super.init(from: container.superDecoder(forKey: .person))
        }
    }

    private class Drink: Decodable {
        let type: String
        let description: String
    }

    private final class DrinkBeer: Drink {
        let alcoholContent: String

        private enum CodingKeys: String, CodingKey {
            case alcoholContent = "alcohol_content"
        }

        required init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alcoholContent = try container.decode(String.self, forKey: .alcoholContent)
            try super.init(from: decoder)
        }
    }

    private enum DrinkTypeKey: CodingKey {
        case type
    }

    private enum DrinkTypes: String, Decodable {
        case water
        case orangeJuice = "orange_juice"
        case beer
    }

    /// Decodes each element as the class its "type" names: a copy of the container
    /// peeks at the type, then the original decodes the element.
    private static func decodeDrinks(_ container: inout any UnkeyedDecodingContainer) throws -> [Drink] {
        var drinks: [Drink] = []
        while !container.isAtEnd {
            var peek = container
            let typeContainer = try peek.nestedContainer(keyedBy: DrinkTypeKey.self)
            let type = try typeContainer.decode(DrinkTypes.self, forKey: .type)
            switch type {
            case .water, .orangeJuice:
                drinks.append(try container.decode(Drink.self))
            case .beer:
                drinks.append(try container.decode(DrinkBeer.self))
            }
        }
        return drinks
    }

    /// `{"drinks": [...]}`.
    private struct Drinks: Decodable {
        let drinks: [Drink]

        enum DrinksKey: CodingKey {
            case drinks
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: DrinksKey.self)
            var drinksArray: any UnkeyedDecodingContainer = try container.nestedUnkeyedContainer(forKey: .drinks)
            drinks = try CodableScenarioTests.decodeDrinks(&drinksArray)
        }
    }

    /// A root-level array of drinks.
    private struct RootDrinks: Decodable {
        let drinks: [Drink]

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var drinks: [Drink] = []
            while !container.isAtEnd {
                var peek = container
                let typeContainer = try peek.nestedContainer(keyedBy: DrinkTypeKey.self)
                let type = try typeContainer.decode(DrinkTypes.self, forKey: .type)
                switch type {
                case .water, .orangeJuice:
                    drinks.append(try container.decode(Drink.self))
                case .beer:
                    drinks.append(try container.decode(DrinkBeer.self))
                }
            }
            self.drinks = drinks
        }
    }
}
