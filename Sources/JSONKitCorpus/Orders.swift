import Foundation

/// A generated page of an online shop's orders, about 1 MB of JSON: the kind of response
/// that carries Foundation's value types (`UUID`, `Date`, `Decimal`, `URL`) and a
/// raw-value enum in nearly every field, written as an app would model it.
///
/// The orders follow from ``seed`` alone, so every run and machine measures the same
/// bytes. The JSON is Foundation's `JSONEncoder` output with ``strategies`` (ISO 8601
/// dates, in whole seconds so that they survive a round trip), slashes unescaped, and
/// each object's keys in the order the models declare them:
///
/// ```swift
/// let sample = try Orders.sample()
/// let decoder = JSONDecoder()
/// sample.strategies.configure(decoder)
/// let orders = try decoder.decode([Orders.Order].self, from: sample.json)
/// ```
public enum Orders {
  /// Where an order is in its life.
  public enum Status: String, Codable, CaseIterable, Sendable {
    /// Placed, not paid yet.
    case pending
    /// Paid, not shipped yet.
    case paid
    /// On its way.
    case shipped
    /// Received by the customer.
    case delivered
    /// Cancelled before payment.
    case cancelled
    /// Paid, then refunded.
    case refunded
  }

  /// One product in an order.
  public struct LineItem: Codable, Equatable, Sendable {
    /// The shop's stock-keeping unit, such as `SKU-04821-BLU`.
    public var sku: String
    /// The product's id.
    public var productId: UUID
    /// How many were ordered, 1 to 4.
    public var quantity: Int
    /// The price of one, in ``Order/currency``, with two decimals.
    public var unitPrice: Decimal

    /// A line item with these fields.
    public init(sku: String, productId: UUID, quantity: Int, unitPrice: Decimal) {
      self.sku = sku
      self.productId = productId
      self.quantity = quantity
      self.unitPrice = unitPrice
    }
  }

  /// One order.
  public struct Order: Codable, Equatable, Sendable {
    /// The order's id.
    public var id: UUID
    /// The customer's id; a customer places several orders.
    public var customerId: UUID
    /// When the order was placed, in whole seconds.
    public var createdAt: Date
    /// When it was paid, in whole seconds; `nil` while pending or once cancelled.
    public var paidAt: Date?
    /// Where the order is in its life.
    public var status: Status
    /// What the order costs: the sum of its items' prices times their quantities.
    public var total: Decimal
    /// The ISO 4217 currency code of every price in the order.
    public var currency: String
    /// The payment receipt, once paid.
    public var receiptURL: URL?
    /// What the customer wrote at checkout, for about one order in five.
    public var note: String?
    /// The products ordered, 1 to 5.
    public var items: [LineItem]

    /// An order with these fields.
    public init(
      id: UUID, customerId: UUID, createdAt: Date, paidAt: Date?, status: Status,
      total: Decimal, currency: String, receiptURL: URL?, note: String?, items: [LineItem]
    ) {
      self.id = id
      self.customerId = customerId
      self.createdAt = createdAt
      self.paidAt = paidAt
      self.status = status
      self.total = total
      self.currency = currency
      self.receiptURL = receiptURL
      self.note = note
      self.items = items
    }
  }

  /// The seed of the generated orders. Changing it changes what the benchmarks measure.
  public static let seed: UInt64 = 0x4F52_4445_5253_0001

  /// How many orders ``sample(count:)`` makes by default: about 1 MB of JSON.
  public static let defaultCount = 2_200

  /// Default keys (the properties' names) and ISO 8601 dates.
  public static let strategies = CodingStrategies.iso8601

  /// `count` generated orders, their JSON, and the strategies that read and write it;
  /// the sample is named `orders`.
  ///
  /// - Throws: what `JSONEncoder` throws, which for these values it does not.
  public static func sample(count: Int = defaultCount) throws -> CodableSample<[Order]> {
    let orders = self.orders(count: count)
    let keyOrder =
      GeneratedJSON.declaredKeys(of: orders[0])
      + GeneratedJSON.declaredKeys(of: orders[0].items[0])
    return CodableSample(
      name: "orders", count: count,
      json: try GeneratedJSON.encode(orders, strategies, keyOrder: keyOrder),
      value: orders, strategies: strategies)
  }

  /// `count` orders, the same for the same count on every run: the first `count` of one
  /// endless sequence that ``seed`` determines.
  public static func orders(count: Int) -> [Order] {
    var generator = SplitMix64(seed: seed)
    let products = (0..<400).map { index in
      Product(index: index, using: &generator)
    }
    let customers = (0..<300).map { _ in UUID(using: &generator) }
    // 2024-01-01T00:00:00Z, and about three orders an hour from then on.
    var createdAt = 1_704_067_200
    return (0..<count).map { _ in
      createdAt += 60 + generator.next(below: 2_400)
      return order(
        createdAt: createdAt, products: products, customers: customers, using: &generator)
    }
  }

  /// A product in the catalogue that orders pick from.
  private struct Product {
    let sku: String
    let id: UUID
    let cents: Int

    init(index: Int, using generator: inout SplitMix64) {
      let colours = ["BLK", "WHT", "BLU", "RED", "GRN", "GRY", "NAT"]
      let number = String(1_000 + index * 37 % 9_000)
      sku =
        "SKU-\(String(repeating: "0", count: 5 - number.count))\(number)-"
        + colours[generator.next(below: colours.count)]
      id = UUID(using: &generator)
      // Prices from 1.00 to 299.99, most of them ending in .99, .49 or .95.
      let endings = [99, 99, 49, 95, 0, generator.next(below: 100)]
      cents = (1 + generator.next(below: 299)) * 100 + endings[generator.next(below: 6)]
    }
  }

  private static let notes = [
    "Leave at the front door.",
    "Gift wrap, please.",
    "Call before delivery: the bell doesn't work.",
    "Deliver to reception — 3rd floor.",
    "Please don't bend; it's a \"fragile\" print.",
    "Weekdays after 6 pm only.",
    "Bitte beim Nachbarn abgeben.",
    "Same address as last time.",
  ]

  private static let currencies = ["USD", "USD", "USD", "EUR", "EUR", "GBP", "CHF"]

  private static func order(
    createdAt: Int, products: [Product], customers: [UUID], using generator: inout SplitMix64
  ) -> Order {
    let id = UUID(using: &generator)
    var cents = 0
    // 1 to 5 items, fewer more often, as in most shops.
    let itemCount = 1 + min(generator.next(below: 5), generator.next(below: 5))
    let items = (0..<itemCount).map { _ in
      let product = products[generator.next(below: products.count)]
      let quantity = generator.next(below: 4) == 0 ? 2 + generator.next(below: 3) : 1
      cents += product.cents * quantity
      return LineItem(
        sku: product.sku, productId: product.id, quantity: quantity,
        unitPrice: Decimal(cents: product.cents))
    }
    let statuses: [Status] = [
      .pending, .paid, .paid, .shipped, .shipped, .delivered, .delivered, .delivered,
      .delivered, .cancelled, .refunded,
    ]
    let status = statuses[generator.next(below: statuses.count)]
    let paid = status != .pending && status != .cancelled
    let paidAt = paid ? createdAt + 5 + generator.next(below: 900) : nil
    let noted = generator.next(below: 5) == 0
    return Order(
      id: id, customerId: customers[generator.next(below: customers.count)],
      createdAt: Date(timeIntervalSince1970: Double(createdAt)),
      paidAt: paidAt.map { Date(timeIntervalSince1970: Double($0)) }, status: status,
      total: Decimal(cents: cents), currency: currencies[generator.next(below: currencies.count)],
      receiptURL: paid
        ? URL(string: "https://pay.example.com/receipts/\(id.uuidString.lowercased())?lang=en")
        : nil,
      note: noted ? notes[generator.next(below: notes.count)] : nil,
      items: items)
  }
}

extension UUID {
  /// A version 4 (random) UUID whose bits come from `generator`.
  init(using generator: inout SplitMix64) {
    let high = generator.next()
    let low = generator.next()
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 {
      bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
      bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
    }
    bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
    bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
    self.init(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}

extension Decimal {
  /// `cents` hundredths: an amount of money with two decimals, such as 1234.56.
  init(cents: Int) {
    self.init(sign: cents < 0 ? .minus : .plus, exponent: -2, significand: Decimal(abs(cents)))
  }
}
