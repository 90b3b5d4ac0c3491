/**
 * Deterministic sandbox catalog of the single connected store (docs/api.md "Overview"
 * items 4 and 6: the store matches its catalog in AED; packages are fixed bundles sold at one price).
 *
 * 230 products across twelve categories (AED 4.50 to AED 24,999.00, with the usual .99/.95/.50/.00
 * price endings) and 20 packages at bundle prices (250 items). Skus are unique and stable: a
 * category prefix (ELC-, HOM-, GFT-, ...) for products, PKG-NNN for packages. Prices are written as AED decimal text and converted to bigint
 * fils exactly (no floating point). Every list total above AED 68.51 is reachable exactly (so
 * such charges match with no discount), and every charge from AED 10.00 to AED 68.51 finds a
 * basket within the 20 percent bound (both checked in catalog-seed.test.ts).
 */
import { toMinor } from "@/lib/contract/money/currency";
import type { CatalogItem } from "./matching";

type Row = readonly [sku: string, name: string, priceAed: string];

const ELECTRONICS: Row[] = [
  ["ELC-001", "USB-C to USB-C Cable 1 m", "19.95"],
  ["ELC-002", "USB-C to Lightning Cable 1 m", "29.00"],
  ["ELC-003", "Braided USB-C Cable 2 m", "34.99"],
  ["ELC-004", "20 W USB-C Wall Charger", "49.00"],
  ["ELC-005", "65 W GaN Dual-Port Charger", "149.00"],
  ["ELC-006", "10,000 mAh Power Bank", "89.95"],
  ["ELC-007", "20,000 mAh Power Bank with Display", "139.00"],
  ["ELC-008", "Wireless Charging Pad 15 W", "79.50"],
  ["ELC-009", "3-in-1 Wireless Charging Stand", "229.00"],
  ["ELC-010", "Car Charger Dual USB", "39.99"],
  ["ELC-011", "Magnetic Car Phone Mount", "59.00"],
  ["ELC-012", "Clear Phone Case", "24.99"],
  ["ELC-013", "Leather Phone Case, Tan", "119.00"],
  ["ELC-014", "Tempered Glass Screen Protector", "14.95"],
  ["ELC-015", "Privacy Screen Protector", "39.00"],
  ["ELC-016", "Wired Earphones with Mic", "29.95"],
  ["ELC-017", "True Wireless Earbuds", "199.00"],
  ["ELC-018", "Noise-Cancelling Headphones", "899.00"],
  ["ELC-019", "Portable Bluetooth Speaker", "249.00"],
  ["ELC-020", "Smart Speaker with Assistant", "349.00"],
  ["ELC-021", "Smart Watch, 44 mm", "1,299.00"],
  ["ELC-022", "Fitness Band", "179.00"],
  ["ELC-023", "Tablet 11-inch, 128 GB", "1,899.00"],
  ["ELC-024", "E-Reader 6-inch", "549.00"],
  ["ELC-025", "Wireless Mouse", "69.00"],
  ["ELC-026", "Mechanical Keyboard", "399.00"],
  ["ELC-027", "USB-C Hub 7-in-1", "189.00"],
  ["ELC-028", "HDMI Cable 2 m", "24.50"],
  ["ELC-029", "Laptop Sleeve 14-inch", "99.00"],
  ["ELC-030", "Laptop Stand, Aluminium", "129.00"],
  ["ELC-031", "1 TB Portable SSD", "449.00"],
  ["ELC-032", "128 GB USB Flash Drive", "59.99"],
  ["ELC-033", "microSD Card 256 GB", "119.99"],
  ["ELC-034", "Webcam 1080p", "219.00"],
  ["ELC-035", "Ring Light 10-inch", "89.00"],
  ["ELC-036", "Smartphone 256 GB", "4,299.00"],
  ["ELC-037", "Laptop 14-inch, 16 GB RAM", "5,499.00"],
  ["ELC-038", "Gaming Console", "2,199.00"],
  ["ELC-039", "4K Smart TV 55-inch", "2,799.00"],
  ["ELC-040", "Professional Laptop 16-inch", "12,999.00"],
  ["ELC-041", "Mirrorless Camera Kit", "8,499.00"],
  ["ELC-042", "AA Batteries, 4 pack", "12.50"],
  ["ELC-043", "Cable Organiser Clips", "9.95"],
  ["ELC-044", "Phone Grip Stand", "7.99"],
];

const HOME: Row[] = [
  ["HOM-001", "Scented Candle, Oud", "69.00"],
  ["HOM-002", "Scented Candle, Jasmine", "59.00"],
  ["HOM-003", "Reed Diffuser 100 ml", "89.00"],
  ["HOM-004", "Ceramic Mug", "29.00"],
  ["HOM-005", "Set of 4 Tea Glasses", "45.00"],
  ["HOM-006", "Arabic Coffee Dallah", "149.00"],
  ["HOM-007", "Cotton Bath Towel", "79.00"],
  ["HOM-008", "Hand Towel Set of 2", "49.50"],
  ["HOM-009", "Percale Bed Sheet Set, King", "349.00"],
  ["HOM-010", "Down-Alternative Pillow", "119.00"],
  ["HOM-011", "Throw Blanket, Wool Blend", "229.00"],
  ["HOM-012", "Cushion Cover, Embroidered", "39.99"],
  ["HOM-013", "Table Lamp, Brass", "399.00"],
  ["HOM-014", "LED Desk Lamp", "129.00"],
  ["HOM-015", "Wall Clock, Walnut", "189.00"],
  ["HOM-016", "Photo Frame 20 x 25 cm", "35.00"],
  ["HOM-017", "Storage Basket, Seagrass", "75.00"],
  ["HOM-018", "Non-Stick Frying Pan 28 cm", "139.00"],
  ["HOM-019", "Stainless Steel Cookware Set", "899.00"],
  ["HOM-020", "Chef's Knife 20 cm", "249.00"],
  ["HOM-021", "Bamboo Cutting Board", "54.95"],
  ["HOM-022", "Electric Kettle 1.7 L", "159.00"],
  ["HOM-023", "Espresso Machine", "1,499.00"],
  ["HOM-024", "Air Fryer 5 L", "449.00"],
  ["HOM-025", "Stand Mixer", "1,899.00"],
  ["HOM-026", "Robot Vacuum Cleaner", "1,799.00"],
  ["HOM-027", "Air Purifier", "999.00"],
  ["HOM-028", "Persian-Style Rug 160 x 230 cm", "2,450.00"],
  ["HOM-029", "Prayer Mat, Velvet", "85.00"],
  ["HOM-030", "Incense Burner, Mabkhara", "95.00"],
  ["HOM-031", "Dinnerware Set, 18 pieces", "599.00"],
  ["HOM-032", "Glass Food Containers, set of 5", "119.50"],
  ["HOM-033", "Microfibre Cloths, 6 pack", "19.99"],
  ["HOM-034", "Dish Sponge, 3 pack", "6.50"],
  ["HOM-035", "Kitchen Timer", "14.99"],
  ["HOM-036", "Coasters, set of 4", "24.00"],
];

const GIFT_CARDS: Row[] = [
  ["GFT-010", "Store Gift Card AED 10", "10.00"],
  ["GFT-025", "Store Gift Card AED 25", "25.00"],
  ["GFT-050", "Store Gift Card AED 50", "50.00"],
  ["GFT-100", "Store Gift Card AED 100", "100.00"],
  ["GFT-200", "Store Gift Card AED 200", "200.00"],
  ["GFT-250", "Store Gift Card AED 250", "250.00"],
  ["GFT-500", "Store Gift Card AED 500", "500.00"],
  ["GFT-1000", "Store Gift Card AED 1,000", "1,000.00"],
  ["GFT-2000", "Store Gift Card AED 2,000", "2,000.00"],
  ["GFT-5000", "Store Gift Card AED 5,000", "5,000.00"],
  ["GFT-APP-050", "App Store Credit AED 50", "50.00"],
  ["GFT-GAME-100", "Gaming Credit AED 100", "100.00"],
  ["GFT-MUSIC-3M", "Music Streaming, 3 months", "59.97"],
];

const APPAREL: Row[] = [
  ["APP-001", "Cotton T-Shirt, White", "39.00"],
  ["APP-002", "Cotton T-Shirt, Black", "39.00"],
  ["APP-003", "Polo Shirt, Navy", "89.00"],
  ["APP-004", "Linen Shirt", "159.00"],
  ["APP-005", "Slim-Fit Chinos", "149.00"],
  ["APP-006", "Denim Jeans", "199.00"],
  ["APP-007", "Hooded Sweatshirt", "129.00"],
  ["APP-008", "Light Jacket", "279.00"],
  ["APP-009", "Kandura, White Cotton", "349.00"],
  ["APP-010", "Abaya, Crepe Black", "450.00"],
  ["APP-011", "Silk Shayla", "189.00"],
  ["APP-012", "Ghutra, Cotton", "75.00"],
  ["APP-013", "Running Shoes", "399.00"],
  ["APP-014", "Leather Sandals", "249.00"],
  ["APP-015", "Canvas Sneakers", "179.00"],
  ["APP-016", "Sports Socks, 3 pairs", "29.95"],
  ["APP-017", "Baseball Cap", "59.00"],
  ["APP-018", "Leather Belt", "119.00"],
  ["APP-019", "Leather Wallet", "199.00"],
  ["APP-020", "Sunglasses, Polarised", "299.00"],
  ["APP-021", "Canvas Tote Bag", "45.00"],
  ["APP-022", "Backpack 20 L", "229.00"],
  ["APP-023", "Kids' T-Shirt", "25.00"],
  ["APP-024", "Kids' Pyjama Set", "69.00"],
  ["APP-025", "Silk Tie", "149.00"],
  ["APP-026", "Cashmere Scarf", "699.00"],
  ["APP-027", "Designer Handbag", "7,950.00"],
  ["APP-028", "Swiss Automatic Watch", "18,500.00"],
  ["APP-029", "Gold Bracelet 21K", "4,750.00"],
  ["APP-030", "Diamond Pendant 18K", "24,999.00"],
  ["APP-031", "Leather Travel Bag", "1,250.00"],
];

const PERFUME: Row[] = [
  ["PRF-001", "Oud Eau de Parfum 100 ml", "495.00"],
  ["PRF-002", "Rose Oud Eau de Parfum 50 ml", "345.00"],
  ["PRF-003", "Musk Perfume Oil 12 ml", "95.00"],
  ["PRF-004", "Amber Eau de Parfum 75 ml", "420.00"],
  ["PRF-005", "Citrus Eau de Toilette 100 ml", "285.00"],
  ["PRF-006", "Bakhoor, 40 g", "55.00"],
  ["PRF-007", "Cambodian Oud Oil 3 ml", "1,200.00"],
  ["PRF-008", "Saffron Eau de Parfum 100 ml", "650.00"],
  ["PRF-009", "Body Mist 250 ml", "79.00"],
  ["PRF-010", "Travel Perfume Atomiser", "35.00"],
  ["PRF-011", "Perfume Discovery Set, 6 x 2 ml", "149.00"],
  ["PRF-012", "Luxury Oud Collection Bottle", "3,950.00"],
  ["PRF-013", "Hair Mist 50 ml", "115.00"],
  ["PRF-014", "Scented Body Lotion 200 ml", "89.50"],
  ["PRF-015", "Deodorant Spray", "22.95"],
  ["PRF-016", "Oud Muattar 6 ml", "245.00"],
];

const GROCERY: Row[] = [
  ["GRC-001", "Medjool Dates 1 kg", "69.00"],
  ["GRC-002", "Stuffed Dates Gift Box", "145.00"],
  ["GRC-003", "Arabic Coffee, Cardamom 250 g", "38.50"],
  ["GRC-004", "Saffron 2 g", "49.00"],
  ["GRC-005", "Sidr Honey 500 g", "185.00"],
  ["GRC-006", "Mixed Nuts 500 g", "59.95"],
  ["GRC-007", "Pistachios 400 g", "54.00"],
  ["GRC-008", "Extra Virgin Olive Oil 1 L", "44.95"],
  ["GRC-009", "Basmati Rice 5 kg", "52.50"],
  ["GRC-010", "Green Tea, 50 bags", "18.75"],
  ["GRC-011", "Specialty Coffee Beans 1 kg", "129.00"],
  ["GRC-012", "Dark Chocolate Bar", "12.95"],
  ["GRC-013", "Chocolate Truffle Box", "95.00"],
  ["GRC-014", "Sparkling Water, 6 pack", "16.50"],
  ["GRC-015", "Bottled Water, 12 x 500 ml", "9.50"],
  ["GRC-016", "Breakfast Hamper", "249.00"],
  ["GRC-017", "Ramadan Iftar Hamper", "399.00"],
  ["GRC-018", "Fresh Fruit Basket", "175.00"],
  ["GRC-019", "Weekly Grocery Bundle", "325.00"],
  ["GRC-020", "Luqaimat Mix 500 g", "14.50"],
  ["GRC-021", "Karak Tea Mix, 10 sachets", "11.25"],
  ["GRC-022", "Za'atar 200 g", "8.95"],
  ["GRC-023", "Granola 400 g", "24.95"],
  ["GRC-024", "Organic Eggs, 12", "21.50"],
];

const BEAUTY: Row[] = [
  ["BTY-001", "Lip Balm", "4.50"],
  ["BTY-002", "Hand Cream 75 ml", "29.00"],
  ["BTY-003", "Facial Cleanser 150 ml", "65.00"],
  ["BTY-004", "Vitamin C Serum 30 ml", "159.00"],
  ["BTY-005", "Sunscreen SPF 50", "89.00"],
  ["BTY-006", "Argan Hair Oil 100 ml", "99.00"],
  ["BTY-007", "Shampoo 400 ml", "32.95"],
  ["BTY-008", "Conditioner 400 ml", "32.95"],
  ["BTY-009", "Makeup Brush Set", "149.00"],
  ["BTY-010", "Eyeshadow Palette", "199.00"],
  ["BTY-011", "Kohl Eyeliner", "45.00"],
  ["BTY-012", "Hair Dryer, Ionic", "349.00"],
  ["BTY-013", "Electric Shaver", "449.00"],
  ["BTY-014", "Sheet Masks, 5 pack", "39.99"],
  ["BTY-015", "Cotton Pads, 100", "5.25"],
  ["BTY-016", "Nail Polish", "27.50"],
];

const TOYS: Row[] = [
  ["TOY-001", "Building Blocks Set, 500 pieces", "199.00"],
  ["TOY-002", "Plush Camel", "49.00"],
  ["TOY-003", "Remote-Control Car", "159.00"],
  ["TOY-004", "Puzzle 1,000 pieces", "69.00"],
  ["TOY-005", "Board Game, Family Edition", "129.00"],
  ["TOY-006", "Card Game", "29.99"],
  ["TOY-007", "Art Set for Kids", "89.00"],
  ["TOY-008", "Drone with Camera", "799.00"],
  ["TOY-009", "Kids' Scooter", "249.00"],
  ["TOY-010", "Balloon Pack, 20", "5.99"],
  ["TOY-011", "Bubble Wand", "7.50"],
  ["TOY-012", "Crayons, 24 colours", "11.95"],
];

const SPORTS: Row[] = [
  ["SPT-001", "Yoga Mat", "119.00"],
  ["SPT-002", "Dumbbells 2 x 5 kg", "179.00"],
  ["SPT-003", "Resistance Bands Set", "69.00"],
  ["SPT-004", "Insulated Water Bottle 750 ml", "79.00"],
  ["SPT-005", "Football, Size 5", "99.00"],
  ["SPT-006", "Padel Racket", "649.00"],
  ["SPT-007", "Padel Balls, 3", "39.00"],
  ["SPT-008", "Camping Tent, 4 person", "699.00"],
  ["SPT-009", "Folding Camping Chair", "129.00"],
  ["SPT-010", "Road Bike", "6,999.00"],
  ["SPT-011", "Treadmill", "3,899.00"],
  ["SPT-012", "Swim Goggles", "49.95"],
];

const BOOKS: Row[] = [
  ["BOK-001", "Arabic Calligraphy Workbook", "59.00"],
  ["BOK-002", "Novel, Paperback", "45.00"],
  ["BOK-003", "Children's Picture Book", "35.00"],
  ["BOK-004", "Cookbook, Emirati Cuisine", "149.00"],
  ["BOK-005", "Notebook A5, Dotted", "29.00"],
  ["BOK-006", "Fountain Pen", "249.00"],
  ["BOK-007", "Gel Pens, 10 pack", "19.50"],
  ["BOK-008", "Greeting Card", "12.00"],
  ["BOK-009", "Gift Wrap Roll", "9.99"],
  ["BOK-010", "Desk Planner 2026", "69.00"],
];

const AUTO: Row[] = [
  ["AUT-001", "Car Air Freshener", "14.95"],
  ["AUT-002", "Car Sunshade", "49.00"],
  ["AUT-003", "Dash Camera", "399.00"],
  ["AUT-004", "Tyre Inflator, Portable", "229.00"],
  ["AUT-005", "Microfibre Car Wash Kit", "89.00"],
  ["AUT-006", "Seat Organiser", "59.00"],
  ["AUT-007", "Jump Starter Power Pack", "349.00"],
  ["AUT-008", "Windshield Washer Fluid", "12.25"],
  ["AUT-009", "Interior Detailing Spray", "34.50"],
  ["AUT-010", "Luxury Car Cover", "1,150.00"],
];

const OUTDOOR: Row[] = [
  ["OUT-001", "Potted Succulent", "29.00"],
  ["OUT-002", "Orchid in Ceramic Pot", "189.00"],
  ["OUT-003", "Garden Tool Set", "119.00"],
  ["OUT-004", "Outdoor Lantern, Solar", "79.95"],
  ["OUT-005", "Barbecue Grill, Charcoal", "899.00"],
  ["OUT-006", "Outdoor Dining Set", "4,299.00"],
];

const PACKAGES: Row[] = [
  ["PKG-001", "Charging Starter Pack (cable, charger, protector)", "69.00"],
  ["PKG-002", "Travel Tech Bundle (power bank, earbuds, cable)", "269.00"],
  ["PKG-003", "Home Office Bundle (keyboard, mouse, stand, hub)", "749.00"],
  ["PKG-004", "Smartphone Essentials (phone, case, earbuds)", "4,499.00"],
  ["PKG-005", "Creator Kit (camera, ring light, SSD)", "8,899.00"],
  ["PKG-006", "Oud Gift Set (perfume, oil, bakhoor)", "749.00"],
  ["PKG-007", "Perfume Trio (oud, amber, rose)", "1,099.00"],
  ["PKG-008", "Eid Gift Hamper", "599.00"],
  ["PKG-009", "Dates and Coffee Majlis Box", "179.00"],
  ["PKG-010", "Family Grocery Month Bundle", "1,150.00"],
  ["PKG-011", "Bedroom Refresh (sheets, pillows, throw)", "599.00"],
  ["PKG-012", "Kitchen Starter Set", "1,199.00"],
  ["PKG-013", "Coffee Lover Set (espresso machine, beans, mugs)", "1,649.00"],
  ["PKG-014", "Skincare Routine Set", "279.00"],
  ["PKG-015", "Back to School Bundle", "399.00"],
  ["PKG-016", "Kids' Play Bundle", "329.00"],
  ["PKG-017", "Fitness Starter Kit", "349.00"],
  ["PKG-018", "Padel Pair Set", "1,249.00"],
  ["PKG-019", "Camping Weekend Pack", "899.00"],
  ["PKG-020", "Luxury Watch and Scarf Gift", "18,999.00"],
];

/** "1,299.00" -> 129900n fils; exact string arithmetic. Throws on malformed seed text. */
function aedToFils(text: string): bigint {
  return toMinor(text.replaceAll(",", ""));
}

function rows(kind: CatalogItem["kind"], list: Row[]): CatalogItem[] {
  return list.map(([sku, name, price]) => ({ sku, name, kind, priceMinor: aedToFils(price) }));
}

/**
 * The seed catalog: CatalogItem[] (prices in fils), products first by category, then packages.
 * Deterministic; every call of the module yields the same skus, names and prices.
 */
export const SEED_CATALOG: CatalogItem[] = [
  ...rows("PRODUCT", ELECTRONICS),
  ...rows("PRODUCT", HOME),
  ...rows("PRODUCT", GIFT_CARDS),
  ...rows("PRODUCT", APPAREL),
  ...rows("PRODUCT", PERFUME),
  ...rows("PRODUCT", GROCERY),
  ...rows("PRODUCT", BEAUTY),
  ...rows("PRODUCT", TOYS),
  ...rows("PRODUCT", SPORTS),
  ...rows("PRODUCT", BOOKS),
  ...rows("PRODUCT", AUTO),
  ...rows("PRODUCT", OUTDOOR),
  ...rows("PACKAGE", PACKAGES),
];
