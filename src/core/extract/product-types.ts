/**
 * Curated lexicon of generic, buyable product types, each mapped to a Google Product Taxonomy
 * path (taxonomy version 2021-09-21, en-US). Matching is case-insensitive and whole-word; the
 * extractor in ./index.ts builds its lookup trie from the tables exported here.
 *
 * Entry syntax (second column of PRODUCT_TYPE_TABLE, `;`-separated forms):
 *   - `air fryer`   plain form: its plural/singular variant is generated ("air fryers").
 *   - `=shorts`     exact form only: no generated variant ("short" is a common adjective).
 *   - `?watch`      ambiguous single word (also a verb or a common non-product noun): only taken
 *                   as a product when the context says noun (determiner/possessive/modifier before
 *                   it, not tagged as a verb or adjective, no direct object after it).
 * Hyphens and spaces are interchangeable in forms ("noise-cancelling" == "noise cancelling").
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

/** [taxonomy path, `;`-separated surface forms]. */
export const PRODUCT_TYPE_TABLE: ReadonlyArray<readonly [category: string, forms: string]> = [
  ['Electronics > Audio > Audio Components > Headphones & Headsets > Headphones', 'headphones; headset; over-ear headphones; on-ear headphones; noise cancelling headphones; noise canceling headphones; gaming headset; studio headphones; bone conduction headphones; earbuds; earphones; in-ear monitors; iems; wireless earbuds'],
  ['Electronics > Audio > Audio Components > Speakers', '?speaker; bluetooth speaker; portable speaker; smart speaker; bookshelf speakers; computer speakers; soundbar; sound bar; subwoofer'],
  ['Electronics > Audio > Audio Components > Microphones', 'microphone; usb microphone; lavalier microphone; condenser microphone; mic; =mics; gaming mic'],
  ['Electronics > Audio > Audio Components > Audio Amplifiers > Headphone Amplifiers', 'headphone amp; headphone amplifier'],
  ['Electronics > Audio > Audio Components > Audio Amplifiers', 'amplifier; stereo receiver; av receiver'],
  ['Electronics > Audio > Audio Players & Recorders > Turntables & Record Players', 'turntable; record player'],
  ['Electronics > Audio > Audio Players & Recorders > MP3 Players', 'mp3 player'],
  ['Electronics > Audio > Audio Players & Recorders > Home Theater Systems', 'home theater system'],
  ['Electronics > Computers > Laptops', 'laptop; notebook computer; gaming laptop; chromebook; ultrabook; 2-in-1 laptop'],
  ['Electronics > Computers > Desktop Computers', 'desktop computer; gaming pc; desktop pc; ?computer; pc; all-in-one computer; mini pc'],
  ['Electronics > Computers > Tablet Computers', '?tablet; android tablet; drawing tablet'],
  ['Electronics > Computers > Handheld Devices > E-Book Readers', 'e-reader; ereader; e-book reader; ebook reader'],
  ['Electronics > Communications > Telephony > Mobile Phones', 'smartphone; ?phone; cell phone; cellphone; mobile phone; android phone; flip phone'],
  ['Electronics > Communications > Telephony > Mobile Phone Accessories > Mobile Phone Cases', 'phone case; iphone case; ?case; leather case; hard case; hard cover case; protective case; flip case; wallet case'],
  ['Electronics > Communications > Telephony > Mobile Phone Accessories > Mobile Phone Stands', 'phone stand; phone holder; phone mount; car phone mount; car mount'],
  ['Electronics > Electronics Accessories > Electronics Films & Shields > Screen Protectors', 'screen protector'],
  ['Electronics > Electronics Accessories > Power > Power Adapters & Chargers', 'charger; phone charger; wireless charger; usb-c charger; fast charger; laptop charger; charging station; charging cable; power adapter; wall charger; car charger'],
  ['Electronics > Electronics Accessories > Power > Batteries > General Purpose Batteries', 'power bank; portable charger; battery pack; =batteries; =aa batteries; =aaa batteries; =rechargeable batteries'],
  ['Electronics > Electronics Accessories > Power > Battery Accessories > General Purpose Battery Chargers', 'battery charger'],
  ['Electronics > Electronics Accessories > Power > Power Strips & Surge Suppressors', 'power strip; surge protector'],
  ['Electronics > Electronics Accessories > Computer Accessories > Laptop Docking Stations', 'docking station; laptop dock'],
  ['Electronics > Electronics Accessories > Computer Components > USB & FireWire Hubs', 'usb hub; usb-c hub'],
  ['Electronics > Electronics Accessories > Computer Components > Computer Processors', 'cpu; processor'],
  ['Electronics > Electronics Accessories > Computer Components > Computer Power Supplies', 'power supply; psu'],
  ['Electronics > Electronics Accessories > Computer Components > Desktop Computer & Server Cases', 'pc case; computer case'],
  ['Electronics > Electronics Accessories > Cables', 'hdmi cable; usb cable; usb-c cable; lightning cable; ethernet cable'],
  ['Electronics > Electronics Accessories > Computer Accessories > Computer Risers & Stands', 'laptop stand; monitor stand; monitor arm'],
  ['Electronics > Electronics Accessories > Computer Accessories > Tablet Computer Docks & Stands', 'tablet stand'],
  ['Electronics > Electronics Accessories > Computer Accessories > Stylus Pens', 'stylus; stylus pen'],
  ['Electronics > Video > Computer Monitors', '?monitor; computer monitor; gaming monitor; ultrawide monitor; ultrawide; portable monitor'],
  ['Electronics > Video > Televisions', 'tv; television; smart tv; oled tv; qled tv'],
  ['Electronics > Video > Video Accessories > Television Parts & Accessories > TV & Monitor Mounts', 'tv mount; tv wall mount'],
  ['Furniture > Entertainment Centers & TV Stands', 'tv stand; entertainment center; media console'],
  ['Electronics > Video > Projectors > Multimedia Projectors', 'projector; mini projector'],
  ['Electronics > Video > Video Accessories > Projector Accessories > Projection Screens', 'projector screen'],
  ['Electronics > Video > Video Players & Recorders > Streaming & Home Media Players', 'streaming device; streaming stick; media player'],
  ['Electronics > Video > Video Players & Recorders > DVD & Blu-ray Players', 'blu-ray player; dvd player'],
  ['Electronics > Electronics Accessories > Computer Components > Input Devices > Keyboards', 'keyboard; mechanical keyboard; gaming keyboard; wireless keyboard; ergonomic keyboard'],
  ['Electronics > Electronics Accessories > Computer Components > Input Devices > Mice & Trackballs', '?mouse; gaming mouse; wireless mouse; ergonomic mouse; trackball'],
  ['Electronics > Electronics Accessories > Computer Components > Input Devices > Touchpads', 'trackpad; touchpad'],
  ['Electronics > Electronics Accessories > Computer Components > Input Devices > Graphics Tablets', 'graphics tablet; pen tablet'],
  ['Electronics > Electronics Accessories > Computer Components > Input Devices > Game Controllers', 'game controller; ?controller; gamepad; joystick'],
  ['Electronics > Electronics Accessories > Computer Components > Input Devices > Game Controllers > Game Racing Wheels', 'racing wheel'],
  ['Electronics > Electronics Accessories > Computer Accessories > Mouse Pads', 'mouse pad; mousepad; desk mat'],
  ['Cameras & Optics > Cameras > Webcams', 'webcam'],
  ['Electronics > Networking > Bridges & Routers > Wireless Routers', 'router; wifi router; wireless router; mesh router; mesh wifi; mesh system'],
  ['Electronics > Networking > Repeaters & Transceivers', 'wifi extender; range extender'],
  ['Electronics > Networking > Modems', 'modem; cable modem'],
  ['Electronics > Networking > Hubs & Switches', 'network switch; ethernet switch'],
  ['Electronics > Print, Copy, Scan & Fax > Printers, Copiers & Fax Machines', 'printer; laser printer; inkjet printer; photo printer; label printer'],
  ['Electronics > Print, Copy, Scan & Fax > 3D Printers', '3d printer'],
  ['Electronics > Print, Copy, Scan & Fax > Scanners', '?scanner'],
  ['Electronics > Print, Copy, Scan & Fax > Printer, Copier & Fax Machine Accessories > Printer Consumables > Toner & Inkjet Cartridges', 'ink cartridges; toner cartridge'],
  ['Electronics > Electronics Accessories > Computer Components > Storage Devices > Hard Drives', 'external hard drive; hard drive; ssd; external ssd; nvme ssd; solid state drive'],
  ['Electronics > Electronics Accessories > Computer Components > Storage Devices > USB Flash Drives', 'flash drive; usb flash drive; thumb drive; usb stick'],
  ['Electronics > Electronics Accessories > Memory > Flash Memory > Flash Memory Cards', 'sd card; memory card; microsd card; micro sd card'],
  ['Electronics > Electronics Accessories > Computer Components > I/O Cards & Adapters > Video Cards & Adapters', 'graphics card; video card; gpu'],
  ['Electronics > Electronics Accessories > Memory > RAM', 'memory kit'],
  ['Electronics > Electronics Accessories > Power > UPS', 'battery backup'],
  ['Electronics > Communications > Communication Radios > Two-Way Radios', 'walkie talkies; two-way radio'],
  ['Electronics > GPS Navigation Systems', 'gps navigator'],
  ['Electronics > GPS Tracking Devices', 'gps tracker; bluetooth tracker; item tracker'],
  ['Electronics > Video Game Consoles', 'game console; gaming console; ?console; handheld console; vr headset; virtual reality headset'],
  ['Software > Video Game Software', 'video game; video games'],
  ['Furniture > Chairs > Gaming Chairs', 'gaming chair'],
  ['Cameras & Optics > Cameras > Digital Cameras', 'camera; ?cam; sports camera; action camera; digital camera; mirrorless camera; dslr; dslr camera; point and shoot camera; compact camera; instant camera'],
  ['Cameras & Optics > Cameras > Film Cameras', 'film camera'],
  ['Cameras & Optics > Cameras > Video Cameras', 'action camera; action cam; video camera; camcorder; vlogging camera; 360 camera'],
  ['Cameras & Optics > Cameras > Surveillance Cameras', 'security camera; security cam; surveillance camera; outdoor camera; indoor camera; ip camera; doorbell camera; video doorbell; pet camera'],
  ['Cameras & Optics > Cameras > Trail Cameras', 'trail camera; game camera'],
  ['Cameras & Optics > Camera & Optic Accessories > Camera & Video Camera Lenses > Camera Lenses', 'camera lens; telephoto lens; zoom lens; prime lens'],
  ['Cameras & Optics > Camera & Optic Accessories > Tripods & Monopods', 'tripod; monopod'],
  ['Cameras & Optics > Camera & Optic Accessories > Camera Parts & Accessories > Camera Stabilizers & Supports', 'gimbal; camera stabilizer'],
  ['Cameras & Optics > Camera & Optic Accessories > Camera Parts & Accessories > Camera Bags & Cases', 'camera bag'],
  ['Cameras & Optics > Camera & Optic Accessories > Camera Parts & Accessories > Video Camera Lights', 'ring light'],
  ['Cameras & Optics > Optics > Binoculars', 'binoculars'],
  ['Cameras & Optics > Optics > Scopes > Telescopes', 'telescope'],
  ['Toys & Games > Toys > Remote Control Toys', '?drone; camera drone; quadcopter'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Motor Vehicle Electronics', 'dash cam; dashcam; dash camera'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Motor Vehicle Electronics > Motor Vehicle Parking Cameras', 'backup camera'],
  ['Apparel & Accessories > Jewelry > Watches', 'smartwatch; smart watch; ?watch; fitness watch; running watch; gps watch'],
  ['Health & Beauty > Health Care > Biometric Monitors > Activity Monitors', 'fitness tracker; activity tracker; step counter; smart ring'],
  ['Electronics > Computers > Smart Glasses', 'smart glasses'],
  ['Electronics > Electronics Accessories > Power > Power Control Units', 'smart plug'],
  ['Hardware > Heating, Ventilation & Air Conditioning > HVAC Controls > Thermostats', 'smart thermostat; thermostat'],
  ['Hardware > Locks & Keys > Locks & Latches', 'smart lock; door lock; deadbolt'],
  ['Home & Garden > Lighting > Light Bulbs', 'smart bulbs; smart bulb; light bulbs; led bulbs'],
  ['Home & Garden > Flood, Fire & Gas Safety > Smoke & Carbon Monoxide Detectors > Smoke Detectors', 'smoke detector; smoke alarm'],
  ['Home & Garden > Flood, Fire & Gas Safety > Smoke & Carbon Monoxide Detectors > Carbon Monoxide Detectors', 'carbon monoxide detector'],
  ['Baby & Toddler > Baby Safety > Baby Monitors', 'baby monitor'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Deep Fryers', 'air fryer; air fryer oven; deep fryer'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Food Mixers & Blenders', 'stand mixer; hand mixer; blender; immersion blender; hand blender; personal blender; food processor; smoothie blender'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Coffee Makers & Espresso Machines > Drip Coffee Makers', 'coffee maker; coffee machine; drip coffee maker; pod coffee maker; single serve coffee maker; cold brew maker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Coffee Makers & Espresso Machines > Espresso Machines', 'espresso machine; espresso maker; latte machine'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Coffee Makers & Espresso Machines > French Presses', 'french press'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliance Accessories > Coffee Maker & Espresso Machine Accessories > Coffee Grinders', 'coffee grinder; burr grinder'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Milk Frothers & Steamers', 'milk frother'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Electric Kettles', 'electric kettle; kettle; gooseneck kettle'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Toasters & Grills > Toasters', 'toaster'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Toasters & Grills > Countertop & Toaster Ovens', 'toaster oven; countertop oven'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Toasters & Grills > Pizza Makers & Ovens', 'pizza oven'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Toasters & Grills > Waffle Irons', 'waffle maker; waffle iron'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Microwave Ovens', '?microwave; microwave oven'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Food Cookers & Steamers > Rice Cookers', 'rice cooker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Food Cookers & Steamers > Slow Cookers', 'slow cooker; crockpot'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Pressure Cookers & Canners', 'pressure cooker; multicooker; multi-cooker; electric pressure cooker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Food Cookers & Steamers > Water Ovens', 'sous vide; sous vide cooker; immersion circulator'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Juicers', 'juicer; cold press juicer'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Food Dehydrators', 'dehydrator; food dehydrator'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Ice Cream Makers', 'ice cream maker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Ice Makers', 'ice maker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Breadmakers', 'bread maker; bread machine'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Vacuum Sealers', 'vacuum sealer'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Soda Makers', 'soda maker; sparkling water maker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Dishwashers', 'dishwasher'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Refrigerators', 'refrigerator; fridge; mini fridge'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Freezers', '?freezer; chest freezer'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Wine Fridges', 'wine fridge; wine cooler'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Cooktops', 'induction cooktop; hot plate'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Outdoor Grills', '?grill; bbq grill; gas grill; charcoal grill; pellet grill; pellet smoker; outdoor grill; ?smoker'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Electric Griddles & Grills', 'electric griddle; indoor grill'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Water Filters', 'water filter; water filter pitcher; filter pitcher'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Knife Sharpeners', 'knife sharpener'],
  ['Home & Garden > Kitchen & Dining > Kitchen Tools & Utensils > Kitchen Knives', 'chef\'s knife; chef knife; kitchen knife; knife set; kitchen knives; santoku'],
  ['Home & Garden > Kitchen & Dining > Kitchen Tools & Utensils > Cutting Boards', 'cutting board'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Cookware Sets', 'cookware set; pots and pans; pots and pans set'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Skillets & Frying Pans', 'frying pan; skillet; cast iron skillet; nonstick pan; non-stick pan; saute pan'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Dutch Ovens', 'dutch oven'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Woks', 'wok'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Saucepans', 'saucepan'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Stock Pots', 'stock pot; stockpot'],
  ['Home & Garden > Kitchen & Dining > Cookware & Bakeware > Bakeware', 'baking sheet; sheet pan; cake pan; muffin tin'],
  ['Home & Garden > Kitchen & Dining > Food Storage > Food Storage Containers', 'food storage containers; meal prep containers'],
  ['Home & Garden > Kitchen & Dining > Food & Beverage Carriers > Lunch Boxes & Totes', 'lunch box; lunchbox; bento box'],
  ['Home & Garden > Kitchen & Dining > Food & Beverage Carriers > Water Bottles', 'water bottle; insulated water bottle'],
  ['Home & Garden > Kitchen & Dining > Tableware > Drinkware > Tumblers', 'tumbler; travel mug; insulated tumbler'],
  ['Home & Garden > Kitchen & Dining > Tableware > Drinkware > Mugs', 'coffee mug; ?mug'],
  ['Home & Garden > Kitchen & Dining > Food & Beverage Carriers > Coolers', '?cooler; ice chest'],
  ['Home & Garden > Kitchen & Dining > Kitchen Tools & Utensils > Cooking Thermometers', 'meat thermometer; instant read thermometer'],
  ['Hardware > Tools > Measuring Tools & Sensors > Measuring Scales', 'kitchen scale; food scale'],
  ['Home & Garden > Household Appliances > Vacuums', '?vacuum; vacuum cleaner; robot vacuum; robotic vacuum; robot vac; cordless vacuum; stick vacuum; handheld vacuum; shop vac; wet dry vac; car vacuum'],
  ['Home & Garden > Household Appliances > Floor & Steam Cleaners > Steam Mops', 'steam mop'],
  ['Home & Garden > Household Appliances > Floor & Steam Cleaners > Carpet Shampooers', 'carpet cleaner'],
  ['Home & Garden > Household Supplies > Household Cleaning Supplies > Mops', '?mop; spin mop'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Air Purifiers', 'air purifier; hepa filter'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Humidifiers', 'humidifier'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Dehumidifiers', 'dehumidifier'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Space Heaters', 'space heater; ?heater; electric heater'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Air Conditioners', 'air conditioner; portable ac; window ac; window air conditioner'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Fans > Ceiling Fans', 'ceiling fan'],
  ['Home & Garden > Household Appliances > Climate Control Appliances > Fans > Desk & Pedestal Fans', 'tower fan; desk fan; box fan; pedestal fan; standing fan'],
  ['Home & Garden > Household Appliances > Laundry Appliances > Washing Machines', 'washing machine; ?washer'],
  ['Home & Garden > Household Appliances > Laundry Appliances > Dryers', '?dryer; clothes dryer'],
  ['Home & Garden > Household Appliances > Laundry Appliances > Irons & Ironing Systems', 'clothes iron; steam iron'],
  ['Home & Garden > Household Appliances > Laundry Appliances > Garment Steamers', 'garment steamer; clothes steamer'],
  ['Home & Garden > Household Supplies > Waste Containment > Trash Cans & Wastebaskets', 'trash can; garbage can'],
  ['Furniture > Office Furniture > Office Chairs', 'office chair; desk chair; ergonomic chair; ergonomic office chair'],
  ['Furniture > Office Furniture > Desks', '?desk; standing desk; sit-stand desk; computer desk; gaming desk; writing desk'],
  ['Furniture > Shelving > Bookcases & Standing Shelves', 'bookshelf; bookcase'],
  ['Furniture > Sofas', '?sofa; ?couch; loveseat; sleeper sofa'],
  ['Furniture > Chairs > Arm Chairs, Recliners & Sleeper Chairs', 'recliner; armchair'],
  ['Furniture > Chairs > Bean Bag Chairs', 'bean bag chair; bean bag'],
  ['Furniture > Beds & Accessories > Mattresses', 'mattress; memory foam mattress; hybrid mattress; mattress topper'],
  ['Furniture > Beds & Accessories > Beds & Bed Frames', 'bed frame; platform bed; bunk bed'],
  ['Home & Garden > Linens & Bedding > Bedding > Pillows', '?pillow; memory foam pillow'],
  ['Home & Garden > Linens & Bedding > Bedding > Bed Sheets', 'bed sheets; sheet set'],
  ['Home & Garden > Linens & Bedding > Bedding > Quilts & Comforters', 'comforter; ?duvet; ?quilt'],
  ['Home & Garden > Linens & Bedding > Bedding > Duvet Covers', 'duvet cover'],
  ['Home & Garden > Linens & Bedding > Bedding > Blankets', '?blanket; weighted blanket; throw blanket'],
  ['Home & Garden > Linens & Bedding > Towels > Bath Towels & Washcloths', 'towels; bath towels'],
  ['Furniture > Tables > Accent Tables > Coffee Tables', 'coffee table'],
  ['Furniture > Tables > Nightstands', 'nightstand; bedside table'],
  ['Furniture > Tables > Kitchen & Dining Room Tables', 'dining table; kitchen table'],
  ['Home & Garden > Decor > Rugs', 'area rug; ?rug'],
  ['Home & Garden > Decor > Window Treatments > Curtains & Drapes', 'curtains; blackout curtains'],
  ['Home & Garden > Lighting > Lamps', 'desk lamp; floor lamp; table lamp; ?lamp'],
  ['Home & Garden > Decor > Clocks > Alarm Clocks', 'alarm clock; sunrise alarm clock'],
  ['Home & Garden > Decor > Home Fragrances > Candles', '?candle; candles; scented candle'],
  ['Home & Garden > Decor > Home Fragrance Accessories > Candle & Oil Warmers', 'diffuser; essential oil diffuser'],
  ['Health & Beauty > Personal Care > Sleeping Aids > White Noise Machines', 'white noise machine; sound machine'],
  ['Hardware > Plumbing > Plumbing Fixture Hardware & Parts > Shower Parts > Shower Heads', 'shower head; showerhead'],
  ['Hardware > Plumbing > Plumbing Fixtures > Faucets', 'faucet; kitchen faucet'],
  ['Hardware > Plumbing > Plumbing Fixtures > Toilets & Bidets > Bidets', 'bidet; bidet attachment'],
  ['Hardware > Tools > Drills > Handheld Power Drills', '?drill; cordless drill; power drill; drill driver; impact driver'],
  ['Hardware > Tools > Saws > Handheld Circular Saws', 'circular saw'],
  ['Hardware > Tools > Saws > Miter Saws', 'miter saw'],
  ['Hardware > Tools > Saws > Table Saws', 'table saw'],
  ['Hardware > Tools > Saws > Jigsaws', 'jigsaw'],
  ['Hardware > Tools > Tool Sets > Hand Tool Sets', 'tool set; tool kit; toolkit; socket set'],
  ['Hardware > Tools > Flashlights & Headlamps > Flashlights', 'flashlight; tactical flashlight'],
  ['Hardware > Tools > Flashlights & Headlamps > Headlamps', 'headlamp'],
  ['Hardware > Power & Electrical Supplies > Generators', '?generator; portable generator; inverter generator'],
  ['Hardware > Power & Electrical Supplies > Solar Energy Kits', 'portable power station; power station; solar generator'],
  ['Hardware > Power & Electrical Supplies > Solar Panels', 'solar panel; solar panels'],
  ['Home & Garden > Lawn & Garden > Outdoor Power Equipment > Lawn Mowers', 'lawn mower; lawnmower; robot mower; robotic mower'],
  ['Home & Garden > Lawn & Garden > Outdoor Power Equipment > Leaf Blowers', 'leaf blower'],
  ['Home & Garden > Lawn & Garden > Outdoor Power Equipment > Pressure Washers', 'pressure washer; power washer'],
  ['Home & Garden > Lawn & Garden > Outdoor Power Equipment > Chainsaws', 'chainsaw'],
  ['Home & Garden > Lawn & Garden > Outdoor Power Equipment > Weed Trimmers', 'string trimmer; weed eater; weed wacker'],
  ['Home & Garden > Lawn & Garden > Outdoor Power Equipment > Hedge Trimmers', 'hedge trimmer'],
  ['Home & Garden > Lawn & Garden > Watering & Irrigation > Garden Hoses', 'garden hose'],
  ['Health & Beauty > Personal Care > Oral Care > Toothbrushes', 'electric toothbrush; toothbrush; sonic toothbrush'],
  ['Health & Beauty > Personal Care > Oral Care > Dental Water Jets', 'water flosser'],
  ['Health & Beauty > Personal Care > Oral Care > Toothpaste', 'toothpaste'],
  ['Health & Beauty > Personal Care > Shaving & Grooming > Electric Razors', 'electric razor; electric shaver; shaver; foil shaver'],
  ['Health & Beauty > Personal Care > Shaving & Grooming > Razors & Razor Blades', 'razor; safety razor; razor blades'],
  ['Health & Beauty > Personal Care > Shaving & Grooming > Hair Clippers & Trimmers', 'beard trimmer; hair clippers; trimmer; body groomer'],
  ['Health & Beauty > Personal Care > Hair Care > Hair Styling Tools > Hair Dryers', 'hair dryer; blow dryer; hairdryer'],
  ['Health & Beauty > Personal Care > Hair Care > Hair Styling Tools > Hair Straighteners', 'hair straightener; flat iron'],
  ['Health & Beauty > Personal Care > Hair Care > Hair Styling Tools > Curling Irons', 'curling iron; curling wand'],
  ['Health & Beauty > Personal Care > Hair Care > Hair Styling Tools > Combs & Brushes', 'hair brush; hairbrush'],
  ['Health & Beauty > Personal Care > Hair Care > Shampoo & Conditioner > Shampoo', 'shampoo; dry shampoo'],
  ['Health & Beauty > Personal Care > Hair Care > Shampoo & Conditioner > Conditioners', '?conditioner'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care > Sunscreen', 'sunscreen; sunblock; mineral sunscreen'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care > Lotion & Moisturizer', 'moisturizer; moisturiser; face moisturizer; ?lotion; body lotion; face cream; night cream'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care > Facial Cleansers', 'face wash; ?cleanser; facial cleanser'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care', '?serum; face serum; retinol; vitamin c serum'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care > Toners & Astringents', 'skin toner; facial toner; face toner'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care > Lip Balms & Treatments', 'lip balm'],
  ['Health & Beauty > Personal Care > Cosmetics > Skin Care > Skin Care Masks & Peels', 'face mask; sheet mask'],
  ['Health & Beauty > Personal Care > Cosmetics > Makeup > Face Makeup', '?makeup; concealer'],
  ['Health & Beauty > Personal Care > Cosmetics > Makeup > Eye Makeup', 'mascara; eyeliner; eyeshadow palette'],
  ['Health & Beauty > Personal Care > Cosmetics > Makeup > Lip Makeup', 'lipstick; lip gloss'],
  ['Health & Beauty > Personal Care > Cosmetics > Cosmetic Tools > Makeup Tools', 'makeup brushes'],
  ['Health & Beauty > Personal Care > Cosmetics > Nail Care > Nail Polishes', 'nail polish'],
  ['Health & Beauty > Personal Care > Cosmetics > Perfume & Cologne', '?perfume; cologne; ?fragrance'],
  ['Health & Beauty > Personal Care > Cosmetics > Bath & Body > Bar Soap', 'soap; bar soap'],
  ['Health & Beauty > Personal Care > Cosmetics > Bath & Body > Body Wash', 'body wash; shower gel'],
  ['Health & Beauty > Personal Care > Cosmetics > Bath & Body > Liquid Hand Soap', 'hand soap'],
  ['Home & Garden > Household Supplies > Household Cleaning Supplies > Household Cleaning Products > Dish Detergent & Soap', 'dish soap; dishwasher pods; dishwasher detergent'],
  ['Home & Garden > Household Supplies > Laundry Supplies > Laundry Detergent', 'laundry detergent; detergent pods'],
  ['Health & Beauty > Personal Care > Deodorant & Anti-Perspirant > Deodorant', 'deodorant'],
  ['Health & Beauty > Personal Care > Massage & Relaxation > Massagers > Electric Massagers', 'massage gun; massager; percussion massager; foot massager; neck massager'],
  ['Health & Beauty > Personal Care > Massage & Relaxation > Massage Chairs', 'massage chair'],
  ['Health & Beauty > Health Care > Biometric Monitors > Body Weight Scales', 'bathroom scale; smart scale; body weight scale'],
  ['Health & Beauty > Health Care > Biometric Monitors > Blood Pressure Monitors', 'blood pressure monitor'],
  ['Health & Beauty > Health Care > Biometric Monitors > Pulse Oximeters', 'pulse oximeter'],
  ['Health & Beauty > Health Care > Biometric Monitors > Medical Thermometers', 'thermometer'],
  ['Health & Beauty > Health Care > Fitness & Nutrition > Vitamins & Supplements', 'protein powder; whey protein; protein shake; pre-workout; preworkout; creatine; vitamins; multivitamin; =supplements; fish oil; melatonin'],
  ['Health & Beauty > Health Care > Fitness & Nutrition > Nutrition Bars', 'protein bars; protein bar'],
  ['Health & Beauty > Personal Care > Vision Care > Eyeglasses', 'reading glasses; blue light glasses'],
  ['Health & Beauty > Personal Care > Vision Care > Contact Lenses', 'contact lenses'],
  ['Apparel & Accessories > Shoes', 'shoes; sneakers; running shoes; trail running shoes; walking shoes; tennis shoes; basketball shoes; training shoes; hiking shoes; hiking boots; ?boots; rain boots; snow boots; work boots; sandals; slippers; loafers; cleats'],
  ['Apparel & Accessories > Clothing > Outerwear > Coats & Jackets', 'jacket; rain jacket; winter jacket; puffer jacket; down jacket; fleece jacket; ?coat; winter coat; parka; raincoat; windbreaker'],
  ['Apparel & Accessories > Clothing > Outerwear > Vests', '?vest; puffer vest'],
  ['Apparel & Accessories > Clothing > Shirts & Tops', 'hoodie; sweatshirt; sweater; cardigan; t-shirt; tshirt; polo shirt; dress shirt; button-down; blouse; tank top'],
  ['Apparel & Accessories > Clothing > Pants', '=jeans; =pants; =leggings; =joggers; sweatpants; chinos; trousers; yoga pants'],
  ['Apparel & Accessories > Clothing > Shorts', '=shorts; running shorts'],
  ['Apparel & Accessories > Clothing > Dresses', '?dress; sundress'],
  ['Apparel & Accessories > Clothing > Skirts', '?skirt'],
  ['Apparel & Accessories > Clothing > Sleepwear & Loungewear', 'pajamas; pyjamas; ?robe; bathrobe'],
  ['Apparel & Accessories > Clothing > Swimwear', 'swimsuit; bathing suit; bikini; swim trunks'],
  ['Apparel & Accessories > Clothing > Underwear & Socks > Socks', 'socks; compression socks'],
  ['Apparel & Accessories > Clothing > Underwear & Socks > Underwear', 'underwear; =boxers; boxer briefs'],
  ['Apparel & Accessories > Clothing > Underwear & Socks > Bras', 'bra; sports bra'],
  ['Apparel & Accessories > Clothing Accessories > Hats', '?hat; beanie; baseball cap; bucket hat'],
  ['Apparel & Accessories > Clothing Accessories > Gloves & Mittens', 'gloves; mittens'],
  ['Apparel & Accessories > Clothing Accessories > Scarves & Shawls > Scarves', 'scarf'],
  ['Apparel & Accessories > Clothing Accessories > Belts', '?belt'],
  ['Apparel & Accessories > Clothing Accessories > Sunglasses', 'sunglasses'],
  ['Apparel & Accessories > Handbags, Wallets & Cases > Handbags', 'handbag; purse; tote bag; tote; crossbody bag'],
  ['Apparel & Accessories > Handbags, Wallets & Cases > Wallets & Money Clips', '?wallet'],
  ['Apparel & Accessories > Jewelry > Necklaces', 'necklace; ?pendant'],
  ['Apparel & Accessories > Jewelry > Earrings', 'earrings'],
  ['Apparel & Accessories > Jewelry > Bracelets', 'bracelet'],
  ['Apparel & Accessories > Jewelry > Rings', 'engagement ring; wedding ring'],
  ['Luggage & Bags > Backpacks', '?backpack; laptop backpack; hiking backpack; travel backpack; school backpack'],
  ['Luggage & Bags > Suitcases', 'suitcase; luggage; carry-on; carry on; checked bag; carry-on luggage; carry on suitcase; hardside luggage'],
  ['Luggage & Bags > Duffel Bags', 'duffel bag; duffle bag; gym bag; weekender bag'],
  ['Luggage & Bags > Messenger Bags', 'messenger bag; laptop bag'],
  ['Luggage & Bags > Fanny Packs', 'fanny pack; belt bag'],
  ['Luggage & Bags > Diaper Bags', 'diaper bag'],
  ['Luggage & Bags > Luggage Accessories > Packing Organizers', 'packing cubes'],
  ['Health & Beauty > Personal Care > Sleeping Aids > Travel Pillows', 'travel pillow; neck pillow'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Tents', 'tent; camping tent; backpacking tent'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Sleeping Bags', 'sleeping bag'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Sleeping Pads', 'sleeping pad'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Camp Furniture > Air Mattresses', 'air mattress'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Camp Furniture', 'camping chair; camp chair'],
  ['Home & Garden > Kitchen & Dining > Kitchen Appliances > Portable Cooking Stoves', 'camping stove; camp stove; backpacking stove'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Camping Lights & Lanterns', '?lantern; camping lantern'],
  ['Home & Garden > Lawn & Garden > Outdoor Living > Hammocks', 'hammock'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Hiking Poles', 'trekking poles; hiking poles'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Portable Water Filters & Purifiers', 'water filter straw; portable water filter'],
  ['Sporting Goods > Outdoor Recreation > Camping & Hiking > Camping Tools > Multifunction Tools & Knives', 'multitool; multi-tool; pocket knife'],
  ['Sporting Goods > Exercise & Fitness > Yoga & Pilates > Yoga & Pilates Mats', 'yoga mat; exercise mat'],
  ['Sporting Goods > Exercise & Fitness > Yoga & Pilates > Yoga & Pilates Blocks', 'yoga blocks; yoga block'],
  ['Sporting Goods > Exercise & Fitness > Foam Rollers', 'foam roller'],
  ['Sporting Goods > Exercise & Fitness > Exercise Bands', 'resistance bands'],
  ['Sporting Goods > Exercise & Fitness > Weight Lifting > Free Weights', 'dumbbells; dumbbell; kettlebell; kettlebells; free weights; adjustable dumbbells; barbell; weight plates'],
  ['Sporting Goods > Exercise & Fitness > Exercise Benches', 'weight bench; workout bench'],
  ['Sporting Goods > Exercise & Fitness > Weight Lifting > Weight Lifting Machines & Racks', 'squat rack; power rack; home gym'],
  ['Sporting Goods > Exercise & Fitness > Push Up & Pull Up Bars', 'pull-up bar; pull up bar'],
  ['Sporting Goods > Exercise & Fitness > Cardio > Jump Ropes', 'jump rope'],
  ['Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Treadmills', 'treadmill; walking pad; under desk treadmill'],
  ['Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Exercise Bikes', 'exercise bike; stationary bike; spin bike; indoor bike; indoor cycling bike'],
  ['Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Rowing Machines', 'rowing machine; ?rower'],
  ['Sporting Goods > Exercise & Fitness > Cardio > Cardio Machines > Elliptical Trainers', '?elliptical; elliptical trainer'],
  ['Sporting Goods > Outdoor Recreation > Cycling > Bicycles', '?bike; bicycle; road bike; mountain bike; e-bike; ebike; electric bike; gravel bike; kids bike'],
  ['Sporting Goods > Outdoor Recreation > Cycling > Cycling Apparel & Accessories > Bicycle Helmets', 'bike helmet; bicycle helmet; cycling helmet'],
  ['Sporting Goods > Outdoor Recreation > Cycling > Bicycle Accessories > Bicycle Locks', 'bike lock'],
  ['Sporting Goods > Outdoor Recreation > Cycling > Bicycle Accessories > Bicycle Trainers', 'bike trainer; indoor trainer; smart trainer'],
  ['Sporting Goods > Outdoor Recreation > Cycling > Bicycle Accessories > Bicycle Pumps', 'bike pump; bicycle pump'],
  ['Sporting Goods > Outdoor Recreation > Cycling > Bicycle Accessories > Bicycle Computers', 'bike computer; cycling computer'],
  ['Sporting Goods > Outdoor Recreation > Riding Scooters', '?scooter; electric scooter; e-scooter; kick scooter'],
  ['Sporting Goods > Outdoor Recreation > Skateboarding > Skateboards', 'skateboard'],
  ['Sporting Goods > Outdoor Recreation > Golf > Golf Clubs', 'golf clubs; putter; golf club set'],
  ['Sporting Goods > Outdoor Recreation > Golf > Golf Balls', 'golf balls'],
  ['Cameras & Optics > Optics > Rangefinders', 'rangefinder; golf rangefinder'],
  ['Sporting Goods > Athletics > Tennis > Tennis Racquets', 'tennis racket; tennis racquet'],
  ['Sporting Goods > Outdoor Recreation > Outdoor Games > Pickleball > Pickleball Paddles', 'pickleball paddle'],
  ['Sporting Goods > Athletics > Soccer > Soccer Balls', 'soccer ball'],
  ['Sporting Goods > Athletics > Boxing & Martial Arts > Boxing & Martial Arts Protective Gear > Boxing Gloves & Mitts', 'boxing gloves'],
  ['Sporting Goods > Athletics > Boxing & Martial Arts > Boxing & Martial Arts Training Equipment > Punching & Training Bags', 'punching bag'],
  ['Sporting Goods > Outdoor Recreation > Boating & Water Sports > Boating & Rafting > Kayaks', 'kayak'],
  ['Sporting Goods > Outdoor Recreation > Boating & Water Sports > Surfing > Paddleboards', 'paddle board; paddleboard; sup board'],
  ['Sporting Goods > Outdoor Recreation > Boating & Water Sports > Boating & Water Sport Apparel > Life Jackets', 'life jacket'],
  ['Sporting Goods > Outdoor Recreation > Fishing > Fishing Rods', 'fishing rod; fishing pole; fishing reel'],
  ['Sporting Goods > Outdoor Recreation > Winter Sports & Activities > Skiing & Snowboarding > Ski & Snowboard Goggles', 'ski goggles; snow goggles'],
  ['Sporting Goods > Outdoor Recreation > Winter Sports & Activities > Skiing & Snowboarding > Skis', '=skis'],
  ['Sporting Goods > Outdoor Recreation > Winter Sports & Activities > Skiing & Snowboarding > Snowboards', 'snowboard'],
  ['Sporting Goods > Outdoor Recreation > Winter Sports & Activities > Skiing & Snowboarding > Ski & Snowboard Helmets', 'ski helmet; snowboard helmet'],
  ['Sporting Goods > Outdoor Recreation > Boating & Water Sports > Swimming > Swim Goggles & Masks', 'swim goggles'],
  ['Baby & Toddler > Baby Transport > Baby Strollers', 'stroller; baby stroller; jogging stroller; travel stroller; double stroller'],
  ['Baby & Toddler > Baby Transport > Baby & Toddler Car Seats', 'car seat; infant car seat; convertible car seat; booster seat'],
  ['Baby & Toddler > Baby Transport > Baby Carriers', 'baby carrier'],
  ['Furniture > Baby & Toddler Furniture > Cribs & Toddler Beds', '?crib; bassinet; toddler bed'],
  ['Furniture > Baby & Toddler Furniture > High Chairs & Booster Seats', 'high chair'],
  ['Baby & Toddler > Baby Toys & Activity Equipment > Play Yards', 'play yard; playpen; pack n play'],
  ['Baby & Toddler > Baby Toys & Activity Equipment > Baby Jumpers & Swings', 'baby swing; baby bouncer'],
  ['Baby & Toddler > Nursing & Feeding > Baby Bottles', 'baby bottles; baby bottle'],
  ['Baby & Toddler > Nursing & Feeding > Breast Pumps', 'breast pump'],
  ['Baby & Toddler > Diapering > Diapers', 'diapers; nappies'],
  ['Baby & Toddler > Diapering > Baby Wipes', 'baby wipes'],
  ['Baby & Toddler > Baby Safety > Baby & Pet Gates', 'baby gate'],
  ['Baby & Toddler > Baby Health > Pacifiers & Teethers', 'pacifier'],
  ['Toys & Games > Toys', '=toys; ?toy'],
  ['Toys & Games > Toys > Building Toys > Interlocking Blocks', 'building blocks; building set; magnetic tiles'],
  ['Toys & Games > Games > Board Games', 'board game; board games'],
  ['Toys & Games > Games > Card Games', 'card game'],
  ['Toys & Games > Puzzles > Jigsaw Puzzles', 'jigsaw puzzle'],
  ['Toys & Games > Toys > Dolls, Playsets & Toy Figures > Action & Toy Figures', 'action figure; action figures'],
  ['Toys & Games > Toys > Dolls, Playsets & Toy Figures > Dolls', 'doll; dollhouse'],
  ['Toys & Games > Toys > Dolls, Playsets & Toy Figures > Stuffed Animals', 'stuffed animal; plushie; teddy bear'],
  ['Toys & Games > Toys > Remote Control Toys > Remote Control Cars & Trucks', 'rc car; remote control car'],
  ['Toys & Games > Toys > Pretend Play > Toy Kitchens & Play Food > Toy Kitchens', 'play kitchen'],
  ['Toys & Games > Toys > Riding Toys > Push & Pedal Riding Vehicles', 'balance bike'],
  ['Animals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Beds', 'dog bed'],
  ['Animals & Pet Supplies > Pet Supplies > Cat Supplies > Cat Beds', 'cat bed'],
  ['Animals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Food', 'dog food'],
  ['Animals & Pet Supplies > Pet Supplies > Cat Supplies > Cat Food', 'cat food'],
  ['Animals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Toys', 'dog toys; dog toy'],
  ['Animals & Pet Supplies > Pet Supplies > Cat Supplies > Cat Toys', 'cat toys; cat toy'],
  ['Animals & Pet Supplies > Pet Supplies > Cat Supplies > Cat Litter', 'cat litter'],
  ['Animals & Pet Supplies > Pet Supplies > Cat Supplies > Cat Litter Boxes', 'litter box; self-cleaning litter box'],
  ['Animals & Pet Supplies > Pet Supplies > Cat Supplies > Cat Furniture', 'cat tree; cat tower'],
  ['Animals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Kennels & Runs', 'dog crate; dog kennel'],
  ['Animals & Pet Supplies > Pet Supplies > Pet Leashes', 'dog leash; leash'],
  ['Animals & Pet Supplies > Pet Supplies > Pet Collars & Harnesses', 'dog collar; dog harness'],
  ['Animals & Pet Supplies > Pet Supplies > Pet Bowls, Feeders & Waterers', 'pet feeder; automatic feeder'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Vehicle Maintenance, Care & Decor > Vehicle Repair & Specialty Tools > Vehicle Jump Starters', 'jump starter; car jump starter'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Vehicle Maintenance, Care & Decor > Vehicle Repair & Specialty Tools', 'tire inflator; air compressor'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Motor Vehicle Parts > Motor Vehicle Carpet & Upholstery', 'floor mats; car floor mats'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Motor Vehicle Parts > Motor Vehicle Seating', 'seat covers; car seat covers'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Vehicle Storage & Cargo > Motor Vehicle Carrying Racks', 'roof rack; cargo box'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Vehicle Maintenance, Care & Decor > Vehicle Cleaning', 'car wax; car wash soap'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Vehicle Maintenance, Care & Decor > Vehicle Fluids > Vehicle Motor Oil', 'motor oil'],
  ['Vehicles & Parts > Vehicle Parts & Accessories > Motor Vehicle Parts > Motor Vehicle Window Parts & Accessories', 'wiper blades'],
  ['Office Supplies > General Office Supplies > Paper Products > Notebooks & Notepads', 'notebook'],
  ['Office Supplies > Office Instruments > Writing & Drawing Instruments > Pens & Pencils > Pens', 'fountain pen; pens; gel pens'],
  ['Office Supplies > Office Equipment > Label Makers', 'label maker'],
  ['Office Supplies > Office Equipment > Calculators', 'calculator; graphing calculator'],
  ['Office Supplies > Office Equipment > Office Shredders', 'shredder; paper shredder'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Arts & Crafts > Art & Crafting Tools > Textile Craft Machines > Sewing Machines', 'sewing machine'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Musical Instruments > String Instruments > Guitars', 'guitar; acoustic guitar; electric guitar; bass guitar; ukulele'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Musical Instruments > Pianos', 'digital piano; keyboard piano; piano'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Musical Instruments > Electronic Musical Instruments > MIDI Controllers', 'midi keyboard; midi controller'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Musical Instruments > Percussion > Drum Kits', 'electronic drum kit; drum kit; drum set'],
  // Books: the medium and the genres people ask for as the kind of book they want.
  ['Media > Books', 'book; novel; paperback; hardcover book; hardback; audiobook; e-book; ebook; cookbook; biography; autobiography; memoir; anthology; short story collection; novella; picture book; children\'s book; comic book; graphic novel; manga; textbook; workbook; poetry book; thriller; thriller book; psychological thriller; suspense thriller; crime novel; crime thriller; murder mystery; mystery novel; mystery book; detective novel; romance novel; romance book; fantasy novel; fantasy book; science fiction novel; sci-fi novel; horror novel; historical novel; historical fiction; literary fiction; classical literature; classic literature; classic novel; self-help book; travel guide; guidebook; bestseller'],
  ['Media > Books', '?romance; ?mystery; ?fantasy; ?horror; ?classic; ?crime; ?fiction; ?non-fiction; ?nonfiction; ?poetry'],
  // Office supplies.
  ['Office Supplies > Filing & Organization > Calendars, Organizers & Planners', 'calendar; desk calendar; wall calendar; office calendar; planner; weekly planner; daily planner; monthly planner; year planner; agenda; diary; organizer'],
  ['Office Supplies > General Office Supplies > Paper Products > Notebooks & Notepads', 'notepad; legal pad; spiral notebook; composition notebook; sticky notes; post-it notes'],
  ['Office Supplies > Office Instruments > Writing & Drawing Instruments > Pens & Pencils > Pens', 'pen; ballpoint pen; ballpoints; rollerball pen; felt-tip pen'],
  ['Office Supplies > Office Instruments > Writing & Drawing Instruments > Pens & Pencils > Pencils', 'pencil; mechanical pencil; colored pencils; coloured pencils'],
  ['Office Supplies > Office Instruments > Writing & Drawing Instruments > Markers & Highlighters', 'marker; highlighter; whiteboard marker; dry erase marker'],
  ['Office Supplies > General Office Supplies > Paper Products > Printer & Copier Paper', 'printer paper; copy paper; a4 paper; =paper; =papers'],
  ['Electronics > Print, Copy, Scan & Fax > Printer, Copier & Fax Machine Accessories > Printer Consumables > Toner & Inkjet Cartridges', 'ink; printer ink; ink cartridge; printer cartridge; cartridge; toner'],
  ['Office Supplies > Filing & Organization > Pen & Pencil Cases', 'pencil case; pencil pouch'],
  ['Office Supplies > Presentation Supplies > Dry-Erase Boards', 'whiteboard; dry erase board'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Arts & Crafts > Art & Crafting Materials > Craft Paint, Ink & Glaze > Art & Craft Paint', 'paint; washable paint; acrylic paint; watercolor paint; watercolour paint; poster paint; finger paint'],
  // Broad kinds of goods that shoppers ask for as such.
  ['Office Supplies', 'office supplies; office products; office product; school supplies; stationery'],
  ['Sporting Goods', 'sports products; sports equipment; sporting goods; sports gear'],
  ['Health & Beauty > Personal Care > Cosmetics', 'beauty products; makeup; cosmetics; skincare products; skin care products'],
  // Sports.
  ['Sporting Goods > Athletics > Racquetball & Squash > Squash Racquets', 'squash racket; squash racquet'],
  ['Sporting Goods > Outdoor Recreation > Winter Sports & Activities > Skiing & Snowboarding', 'skis; snowboard'],
  ['Sporting Goods > Outdoor Recreation > Outdoor Games > Badminton > Badminton Racquets & Sets', 'badminton racket; badminton racquet; racket; racquet'],
  ['Sporting Goods > Outdoor Recreation > Outdoor Games > Badminton > Shuttlecocks', 'shuttlecock; shuttlecocks; shuttle cock; birdie'],
  ['Sporting Goods > Athletics > Figure Skating & Hockey > Hockey Protective Gear > Hockey Helmets', 'hockey helmet'],
  ['Sporting Goods > Athletics > Figure Skating & Hockey > Ice Skates', 'ice skates; skates; hockey skates; figure skates'],
  ['Sporting Goods > Athletics', 'protective gear; protection gear; shin guards; knee pads; elbow pads'],
  ['Apparel & Accessories > Clothing Accessories > Headwear', 'helmet; sports helmet'],
  ['Sporting Goods > Athletics > Tennis > Tennis Balls', 'tennis balls'],
  ['Sporting Goods > Athletics > Tennis > Tennis Racquet Accessories > Tennis Racquet String', 'racket strings; racquet strings; strings'],
];

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

/** Irregular plurals used when generating variants of a form's last word. */
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = {
  knife: 'knives', shelf: 'shelves', scarf: 'scarves', mouse: 'mice', leaf: 'leaves', man: 'men',
  woman: 'women', child: 'children', foot: 'feet', tooth: 'teeth', goose: 'geese',
};
const IRREGULAR_SINGULARS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(IRREGULAR_PLURALS).map(([s, p]) => [p, s]),
);

function pluralWord(w: string): string {
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular) return irregular;
  if (/(s|x|z|ch|sh)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

function singularWord(w: string): string | null {
  const irregular = IRREGULAR_SINGULARS[w];
  if (irregular) return irregular;
  if (w.length < 4 || w.endsWith('ss') || !w.endsWith('s')) return null;
  if (/[^aeiou]ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(sses|xes|zes|ches|shes)$/.test(w)) return w.slice(0, -2);
  return w.slice(0, -1);
}

/** A parsed product-type form. */
export interface ProductTypeForm {
  /** Lower-case surface form, words separated by single spaces. */
  form: string;
  category: string;
  /** Needs noun context when it is the only word of a mention (see the `?` marker above). */
  ambiguous: boolean;
}

function variantsOf(form: string): string[] {
  const words = form.split(' ');
  const last = words[words.length - 1] ?? '';
  const head = words.slice(0, -1);
  const out = [form];
  const singular = singularWord(last);
  if (singular && !IRREGULAR_PLURALS[last]) out.push([...head, singular].join(' '));
  else out.push([...head, pluralWord(last)].join(' '));
  return out;
}

/**
 * Single words of the generated taxonomy list that are product names in a catalogue but rarely
 * in a chat ("dates", "keys", "fans", "chips").
 */
const TAXONOMY_STOPWORDS = new Set(
  ('dates keys greens chips bridges islands checks finishes foundations communications athletics gymnastics ' +
    'billiards clubs fans cars guns fonts awards flags gates doors drains garages dies bows jams dips floats blocks ' +
    'bolts charms braces cuffs chains crossovers grips hoops tips buffers buffets inserts housings hubs finders ' +
    'converters equalizers frames filters coils couplers cutters spirits powers beans eggs cookies crackers ' +
    'buns breads berries apples lemons grapes figs bananas buttons hangers invitations brochures conditioners ' +
    'concealers bronzers blushes cosmetics costumes coats dresses jackets hats belts bras screens batteries displays ' +
    'lenses handles wheels tires seats pedals lids caps ranges tops videos baskets feathers carts ' +
    'novelties singles stations plans').split(' '),
);

/** Phrases of the generated list that are site furniture in a chat ("your shopping cart"). */
const TAXONOMY_STOP_PHRASES = new Set(['shopping carts', 'shopping baskets', 'gift cards', 'price tags']);

/** models/tables/taxonomy-types.json, as scripts/build-lexicons.ts writes it. */
export interface TaxonomyTypes {
  source: string;
  categories: string[];
  /** [form, index in `categories`]. */
  types: Array<[string, number]>;
}

/**
 * Product types generated from the Google Product Taxonomy (scripts/build-lexicons.ts), read from
 * its table on first use: JSON.parse reads the 0.4 MB much faster than V8 compiles it as a module's
 * object literal, and a process that never reads a message never pays for it.
 */
function taxonomyForms(): Array<[form: string, category: string, ambiguous: boolean]> {
  const taxonomy = readTable<TaxonomyTypes>('taxonomy-types');
  const out: Array<[string, string, boolean]> = [];
  for (const [form, index] of taxonomy.types) {
    const single = !form.includes(' ');
    if (single && TAXONOMY_STOPWORDS.has(form)) continue;
    if (TAXONOMY_STOP_PHRASES.has(form)) continue;
    // A lone word from the generated list needs noun context, like the `?` forms above.
    out.push([form, taxonomy.categories[index] ?? '', single]);
  }
  return out;
}

/** Every surface form of the product-type lexicon, variants included (first entry wins on clashes). */
export function productTypeForms(): ProductTypeForm[] {
  const seen = new Set<string>();
  const out: ProductTypeForm[] = [];
  for (const [category, forms] of PRODUCT_TYPE_TABLE) {
    for (const raw of forms.split(';')) {
      let form = raw.trim().toLowerCase();
      if (!form) continue;
      let exact = false;
      let ambiguous = false;
      if (form.startsWith('=')) {
        exact = true;
        form = form.slice(1);
      } else if (form.startsWith('?')) {
        ambiguous = true;
        form = form.slice(1);
      }
      for (const variant of exact ? [form] : variantsOf(form)) {
        if (seen.has(variant)) continue;
        seen.add(variant);
        out.push({ form: variant, category, ambiguous });
      }
    }
  }
  for (const [form, category, ambiguous] of taxonomyForms()) {
    for (const variant of variantsOf(form)) {
      if (seen.has(variant)) continue;
      seen.add(variant);
      out.push({ form: variant, category, ambiguous });
    }
  }
  return out;
}
