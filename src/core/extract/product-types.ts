/**
 * The product-type lexicon at run time: the surface forms of generic, buyable product types with
 * their Google Product Taxonomy paths (models/tables/product-type-forms.json, derived from the
 * table in ./product-type-table.ts), and the word lists the span rules read beside them.
 * Matching is case-insensitive and whole-word; the extractor builds its lookup trie from
 * `productTypeForms()` (./lexicon.ts).
 */
import { readTable } from '../model/load.js';

/** Taxonomy paths that product lines and brands in ./brands.ts point to. */
export const CATEGORY = {
  headphones: 'Electronics > Audio > Audio Components > Headphones & Headsets > Headphones',
  speakers: 'Electronics > Audio > Audio Components > Speakers',
  mp3Players: 'Electronics > Audio > Audio Players & Recorders > MP3 Players',
  phones: 'Electronics > Communications > Telephony > Mobile Phones',
  laptops: 'Electronics > Computers > Laptops',
  desktops: 'Electronics > Computers > Desktop Computers',
  computers: 'Electronics > Computers',
  tablets: 'Electronics > Computers > Tablet Computers',
  eReaders: 'Electronics > Computers > Handheld Devices > E-Book Readers',
  smartGlasses: 'Electronics > Computers > Smart Glasses',
  watches: 'Apparel & Accessories > Jewelry > Watches',
  activityMonitors: 'Health & Beauty > Health Care > Biometric Monitors > Activity Monitors',
  consoles: 'Electronics > Video Game Consoles',
  gameControllers: 'Electronics > Electronics Accessories > Computer Components > Input Devices > Game Controllers',
  keyboards: 'Electronics > Electronics Accessories > Computer Components > Input Devices > Keyboards',
  mice: 'Electronics > Electronics Accessories > Computer Components > Input Devices > Mice & Trackballs',
  graphicsTablets: 'Electronics > Electronics Accessories > Computer Components > Input Devices > Graphics Tablets',
  stylusPens: 'Electronics > Electronics Accessories > Computer Accessories > Stylus Pens',
  videoCards: 'Electronics > Electronics Accessories > Computer Components > I/O Cards & Adapters > Video Cards & Adapters',
  processors: 'Electronics > Electronics Accessories > Computer Components > Computer Processors',
  storage: 'Electronics > Electronics Accessories > Computer Components > Storage Devices > Hard Drives',
  monitors: 'Electronics > Video > Computer Monitors',
  televisions: 'Electronics > Video > Televisions',
  streamingPlayers: 'Electronics > Video > Video Players & Recorders > Streaming & Home Media Players',
  routers: 'Electronics > Networking > Bridges & Routers > Wireless Routers',
  printers: 'Electronics > Print, Copy, Scan & Fax > Printers, Copiers & Fax Machines',
  chargers: 'Electronics > Electronics Accessories > Power > Power Adapters & Chargers',
  powerBanks: 'Electronics > Electronics Accessories > Power > Batteries > General Purpose Batteries',
  electronicsAccessories: 'Electronics > Electronics Accessories',
  phoneCases: 'Electronics > Communications > Telephony > Mobile Phone Accessories > Mobile Phone Cases',
  gpsTrackers: 'Electronics > GPS Tracking Devices',
  cameras: 'Cameras & Optics > Cameras > Digital Cameras',
  instantCameras: 'Cameras & Optics > Cameras > Film Cameras',
  videoCameras: 'Cameras & Optics > Cameras > Video Cameras',
  securityCameras: 'Cameras & Optics > Cameras > Surveillance Cameras',
  drones: 'Toys & Games > Toys > Remote Control Toys',
  vacuums: 'Home & Garden > Household Appliances > Vacuums',
  airPurifiers: 'Home & Garden > Household Appliances > Climate Control Appliances > Air Purifiers',
  fans: 'Home & Garden > Household Appliances > Climate Control Appliances > Fans',
  thermostats: 'Hardware > Heating, Ventilation & Air Conditioning > HVAC Controls > Thermostats',
  lightBulbs: 'Home & Garden > Lighting > Light Bulbs',
  pressureCookers: 'Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Pressure Cookers & Canners',
  airFryers: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Deep Fryers',
  blenders: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Food Mixers & Blenders',
  coffeeMakers: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Coffee Makers & Espresso Machines',
  espressoMachines: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Coffee Makers & Espresso Machines > Espresso Machines',
  iceCreamMakers: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Ice Cream Makers',
  grills: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Outdoor Grills',
  cookware: 'Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware',
  dutchOvens: 'Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Dutch Ovens',
  waterBottles: 'Home & Garden > Kitchen & Dining > Food & Beverage Carriers > Water Bottles',
  tumblers: 'Home & Garden > Kitchen & Dining > Tableware > Drinkware > Tumblers',
  mugs: 'Home & Garden > Kitchen & Dining > Tableware > Drinkware > Mugs',
  coolers: 'Home & Garden > Kitchen & Dining > Food & Beverage Carriers > Coolers',
  waterFilters: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Water Filters',
  mattresses: 'Furniture > Beds & Accessories > Mattresses',
  officeChairs: 'Furniture > Office Furniture > Office Chairs',
  gamingChairs: 'Furniture > Chairs > Gaming Chairs',
  hairDryers: 'Health & Beauty > Personal Care > Hair Care > Hair Styling Tools > Hair Dryers',
  hairStylingTools: 'Health & Beauty > Personal Care > Hair Care > Hair Styling Tools',
  toothbrushes: 'Health & Beauty > Personal Care > Oral Care > Toothbrushes',
  electricRazors: 'Health & Beauty > Personal Care > Shaving & Grooming > Electric Razors',
  massagers: 'Health & Beauty > Personal Care > Massage & Relaxation > Massagers > Electric Massagers',
  shoes: 'Apparel & Accessories > Shoes',
  sunglasses: 'Apparel & Accessories > Clothing Accessories > Sunglasses',
  exerciseBikes: 'Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Exercise Bikes',
  treadmills: 'Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Treadmills',
  rowingMachines: 'Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Rowing Machines',
  powerStations: 'Hardware > Power & Electrical Supplies > Solar Energy Kits',
  drills: 'Hardware > Tools > Drills > Handheld Power Drills',
  buildingToys: 'Toys & Games > Toys > Building Toys > Interlocking Blocks',
  dolls: 'Toys & Games > Toys > Dolls, Playsets & Toy Figures > Dolls',
  toyCars: 'Toys & Games > Toys > Play Vehicles > Toy Cars',
  toys: 'Toys & Games > Toys',
  boardGames: 'Toys & Games > Games > Board Games',
  playDough: 'Toys & Games > Toys > Art & Drawing Toys > Play Dough & Putty',
  strollers: 'Baby & Toddler > Baby Transport > Baby Strollers',
  carSeats: 'Baby & Toddler > Baby Transport > Baby & Toddler Car Seats',
} as const;


/**
 * Modifiers that are part of a product type when they sit directly before one ("noise cancelling
 * headphones", "4K monitor", "men's running shoes"). Opinion words (good, best, cheap, nice, great,
 * new, decent, ...) are deliberately absent, so they are never part of a link.
 */
export const MODIFIERS: readonly string[] = [
  // audio / electronics features
  'wireless', 'wired', 'bluetooth', 'noise cancelling', 'noise canceling', 'noise-cancelling',
  'active noise cancelling', 'anc', 'noise isolating', 'over-ear', 'over ear', 'on-ear', 'in-ear',
  'open-ear', 'true wireless', 'usb', 'usb-c', 'usb c', 'gaming', 'mechanical', 'ergonomic',
  'portable', 'waterproof', 'water-resistant', 'water resistant', 'smart', 'cordless', 'corded',
  'electric', 'manual', 'automatic', 'digital', 'analog', 'robot', 'robotic', 'rechargeable',
  'solar', 'hd', 'full hd', 'uhd', 'oled', 'qled', 'led', 'lcd', 'curved', 'ultrawide', 'touchscreen',
  'touch screen', 'unlocked', 'refurbished', 'mesh', 'dual band', 'tri-band', 'studio', 'podcast',
  'condenser', 'streaming', 'mirrorless', 'dslr', 'full-frame', 'full frame', 'instant', 'action',
  'handheld', 'compact', 'mini', 'foldable', 'folding', 'adjustable', 'standing', 'convertible',
  'magnetic', 'low profile', 'low-profile', 'hot-swappable', 'tenkeyless', 'split', 'vertical',
  'gps', 'cellular', 'lte', '5g', 'wifi', 'wi-fi', 'noise-canceling', 'indoor', 'outdoor',
  // size / capacity words
  'small', 'large', 'extra large', 'xl', 'full size', 'full-size', 'king size', 'queen size',
  'king', 'queen', 'twin', 'double', 'single', 'lightweight', 'heavy duty', 'heavy-duty',
  'professional', 'commercial', 'personal', 'family', 'travel', 'carry-on', 'expandable',
  // usage / audience
  "men's", 'mens', "women's", 'womens', "kids'", 'kids', "kid's", "boys'", 'boys', "girls'", 'girls',
  'baby', 'toddler', 'infant', 'youth', 'adult', 'unisex', 'trail', 'road', 'mountain', 'hiking',
  'running', 'walking', 'training', 'tennis', 'basketball', 'soccer', 'golf', 'yoga', 'camping',
  'backpacking', 'climbing', 'cycling', 'swim', 'swimming', 'fishing', 'hunting', 'ski', 'snow',
  'winter', 'summer', 'rain', 'kitchen', 'office', 'home', 'desk', 'bedroom', 'bathroom', 'car',
  'gym', 'workout', 'fitness', 'school', 'work', 'everyday', 'pet', 'dog', 'cat', 'sleep',
  // materials / build
  'leather', 'vegan leather', 'wool', 'merino', 'merino wool', 'cotton', 'organic cotton', 'silk',
  'linen', 'bamboo', 'cashmere', 'fleece', 'down', 'denim', 'stainless steel', 'stainless',
  'cast iron', 'carbon steel', 'nonstick', 'non-stick', 'non stick', 'ceramic', 'glass', 'wooden',
  'wood', 'metal', 'aluminum', 'aluminium', 'titanium', 'carbon fiber', 'plastic', 'memory foam',
  'hybrid', 'insulated', 'vacuum insulated', 'hardside', 'hard shell', 'hardshell', 'softside',
  'rolling', 'spinner', 'inflatable', 'weighted', 'heated', 'cooling', 'breathable',
  // cooking / power
  'induction', 'gas', 'charcoal', 'pellet', 'propane', 'drip', 'pour over', 'pour-over',
  'single serve', 'cold brew', 'burr', 'countertop', 'built-in', 'portable power',
  // beauty
  'mineral', 'tinted', 'organic', 'natural', 'unscented', 'fragrance-free', 'fragrance free',
  'hypoallergenic', 'sensitive skin', 'anti-aging', 'vitamin c', 'hyaluronic acid', 'spf',
  'sulfate-free', 'sulfate free', 'whey', 'plant-based', 'plant based', 'vegan', 'keto',
  // colours
  'black', 'white', 'grey', 'gray', 'silver', 'gold', 'rose gold', 'red', 'blue', 'navy', 'green',
  'pink', 'purple', 'yellow', 'orange', 'brown', 'beige', 'tan', 'clear', 'transparent',
];

/** Unit words that make a preceding number a specification ("65 inch", "6 quart", "4-person"). */
export const UNIT_WORDS: readonly string[] = [
  'inch', 'inches', 'in', 'foot', 'feet', 'ft', 'cm', 'mm', 'meter', 'metre', 'quart', 'quarts', 'qt',
  'liter', 'liters', 'litre', 'litres', 'l', 'gallon', 'gallons', 'gal', 'oz', 'ounce', 'ounces', 'ml',
  'lb', 'lbs', 'pound', 'pounds', 'kg', 'cup', 'cups', 'slice', 'piece', 'pieces', 'pc', 'pcs', 'pack',
  'count', 'person', 'people', 'man', 'burner', 'speed', 'port', 'tb', 'gb', 'mb', 'hz', 'k', 'p',
  'w', 'watt', 'watts', 'v', 'volt', 'mah', 'mp', 'megapixel', 'bar', 'tier', 'drawer', 'seater',
  'wheel', 'bay', 'channel', 'way', 'degree', 'spf',
];

/**
 * Accessory words that may directly follow a brand, product line or model ("iPhone 15 case",
 * "AirPods Pro case", "PS5 controller") and then give the mention its category.
 */
export const ACCESSORY_TAILS: Readonly<Record<string, string>> = {
  case: CATEGORY.electronicsAccessories,
  cases: CATEGORY.electronicsAccessories,
  cover: CATEGORY.electronicsAccessories,
  sleeve: CATEGORY.electronicsAccessories,
  skin: CATEGORY.electronicsAccessories,
  charger: CATEGORY.chargers,
  chargers: CATEGORY.chargers,
  cable: 'Electronics > Electronics Accessories > Cables',
  cord: 'Electronics > Electronics Accessories > Cables',
  adapter: CATEGORY.chargers,
  dock: 'Electronics > Electronics Accessories > Computer Accessories > Laptop Docking Stations',
  stand: 'Electronics > Electronics Accessories > Computer Accessories > Computer Risers & Stands',
  mount: 'Electronics > Communications > Telephony > Mobile Phone Accessories > Mobile Phone Stands',
  band: 'Apparel & Accessories > Jewelry > Watch Accessories > Watch Bands',
  bands: 'Apparel & Accessories > Jewelry > Watch Accessories > Watch Bands',
  strap: 'Apparel & Accessories > Jewelry > Watch Accessories > Watch Bands',
  tips: 'Electronics > Audio > Audio Accessories > Headphone & Headset Accessories > Headphone Cushions & Tips',
  controller: CATEGORY.gameControllers,
  controllers: CATEGORY.gameControllers,
  remote: 'Electronics > Electronics Accessories > Remote Controls',
  pods: CATEGORY.coffeeMakers,
  filter: CATEGORY.waterFilters,
  filters: CATEGORY.waterFilters,
  battery: CATEGORY.powerBanks,
  batteries: CATEGORY.powerBanks,
  replacement: 'Electronics > Electronics Accessories',
};

/**
 * Nouns that, right after a product type, show the type is only a modifier of something that is
 * not a product ("phone number", "TV show", "computer science", "bike ride").
 */
export const NON_PRODUCT_HEADS: readonly string[] = [
  'number', 'numbers', 'call', 'calls', 'bill', 'bills', 'plan', 'plans', 'carrier', 'carriers',
  'company', 'companies', 'provider', 'providers', 'service', 'services', 'science', 'engineering',
  'show', 'shows', 'series', 'episode', 'episodes', 'channel', 'channels', 'network', 'networks',
  'station', 'stations', 'app', 'apps', 'account', 'accounts', 'ride', 'rides', 'roll', 'click',
  'clicks', 'store', 'stores', 'shop', 'shops', 'industry', 'market', 'class', 'classes', 'lesson',
  'lessons', 'game', 'games', 'screen time', 'addiction', 'etiquette', 'interview', 'line', 'lines',
  'race', 'races', 'team', 'teams', 'trip', 'trips', 'club', 'course', 'courses', 'day', 'night',
];

/** A parsed product-type form. */
export interface ProductTypeForm {
  /** Lower-case surface form, words separated by single spaces. */
  form: string;
  category: string;
  /** Needs noun context when it is the only word of a mention (the `?` marker of ./product-type-table.ts). */
  ambiguous: boolean;
}

/**
 * models/tables/product-type-forms.json: `categories` once, each form as
 * [form, index in `categories`, 1 when ambiguous else 0], in the lexicon's order.
 */
export interface ProductTypeFormsFile {
  source: string;
  categories: string[];
  forms: Array<[form: string, category: number, ambiguous: 0 | 1]>;
}

/** Every surface form of the product-type lexicon, variants included, read from its table on each call. */
export function productTypeForms(): ProductTypeForm[] {
  const file = readTable<ProductTypeFormsFile>('product-type-forms');
  return file.forms.map(([form, category, ambiguous]) => ({ form, category: file.categories[category]!, ambiguous: ambiguous === 1 }));
}
