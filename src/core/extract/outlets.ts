/**
 * News outlets, broadcasters, websites and online platforms: where people read, watch or hear
 * something, never goods a shop sells ("read it on Google News", "…, via Deadline"). Like the
 * stores and services of ./brands.ts they are lexicon `stop` entries: a feature of the tagger
 * ("store") and a span the rules never link. The social NER sets label many of them `product`;
 * the tagger's trainer (scripts/train/corpus.ts) makes those labels negatives with this list.
 *
 * Curated by hand from the names of widely known English-language outlets and platforms (facts,
 * not anyone's list). Names that are also everyday words or goods are left out on purpose
 * ("Time", "People", "Variety", "The Sun", "The Verge", "Medium", "Slate", "Pandora", "Reels":
 * "on the verge", "medium roast", fishing reels, Pandora charms).
 */
export const OUTLETS: readonly string[] = [
  // News agencies, broadcasters and networks.
  'Associated Press', 'The Associated Press', 'AP News', 'Reuters', 'AFP', 'Bloomberg News', 'BBC', 'BBC News',
  'BBC Sport', 'BBC Radio', 'CNN', 'CNN Business', 'MSNBC', 'CNBC', 'Fox News', 'Fox Business', 'Fox Sports', 'NBC',
  'NBC News', 'NBC Sports', 'ABC News', 'CBS', 'CBS News', 'CBS Sports', 'NPR', 'PBS', 'PBS NewsHour', 'C-SPAN',
  'Sky News', 'Sky Sports', 'ITV News', 'Channel 4 News', 'Al Jazeera', 'Euronews', 'France 24', 'Deutsche Welle',
  'DW News', 'CBC News', 'CTV News', 'ABC Australia', 'RTÉ', 'NHK World', 'ESPN', 'ESPN+', 'TNT Sports', 'Newsmax',
  'One America News', 'Yahoo News', 'Yahoo Sports', 'Yahoo Finance', 'Google News', 'Apple News', 'MSN', 'Newsweek',
  'iHeartRadio', 'SiriusXM', 'BBC Radio 1', 'Radio 1', 'Radio 4', 'Capital FM', 'Kiss FM', 'Heart FM', 'LBC',
  'TalkSport', 'TMZ', 'E! News', 'Entertainment Tonight', 'Access Hollywood',
  // Newspapers and their sites.
  'The New York Times', 'New York Times', 'NYTimes', 'The Washington Post', 'Washington Post', 'The Wall Street Journal',
  'Wall Street Journal', 'WSJ', 'USA Today', 'Los Angeles Times', 'LA Times', 'Chicago Tribune', 'New York Post',
  'NY Post', 'The Boston Globe', 'Boston Globe', 'San Francisco Chronicle', 'Houston Chronicle', 'Miami Herald',
  'The Seattle Times', 'The Guardian', 'The Sunday Times', 'The Telegraph', 'Daily Telegraph', 'Daily Mail',
  'Daily Mail Online', 'MailOnline', 'Mail Online', 'Daily Mirror', 'Daily Express', 'Evening Standard', 'Metro UK',
  'Financial Times', 'The Economist', 'The Irish Times', 'The Scotsman', 'Sydney Morning Herald', 'Toronto Star',
  'The Globe and Mail', 'National Post', 'Times of India', 'The Hindu', 'Hindustan Times', 'NDTV',
  'South China Morning Post', 'The Straits Times', 'The Japan Times', 'Haaretz', 'The Jerusalem Post', 'Le Monde',
  'Der Spiegel', 'El País', 'The Epoch Times', 'Epoch Times', 'The Western Journal', 'Daily Caller', 'The Daily Caller',
  'Breitbart', 'Breitbart News', 'The Daily Beast', 'Daily Beast', 'Politico', 'Axios', 'Vice News', 'HuffPost',
  'Huffington Post', 'BuzzFeed', 'BuzzFeed News', 'Business Insider', 'Forbes', 'Bloomberg', 'Barron\'s', 'MarketWatch',
  'Yahoo', 'The Atlantic', 'The New Yorker', 'New York Magazine', 'Rolling Stone', 'Pitchfork', 'NME',
  'Deadline Hollywood', 'The Hollywood Reporter', 'Hollywood Reporter', 'Entertainment Weekly', 'IndieWire',
  'Vanity Fair', 'TechCrunch', 'Engadget', 'Gizmodo', 'Ars Technica', 'CNET', 'ZDNet', 'Mashable', 'Tom\'s Guide',
  'Tom\'s Hardware', 'PCMag', 'IGN', 'GameSpot', 'Kotaku', 'Eurogamer', 'Bleacher Report', 'MMA Junkie', 'MMA Fighting',
  'Bloody Elbow', 'Sherdog', 'Sports Illustrated', 'The Ringer', 'Barstool Sports', 'Daily Wire', 'The Blaze',
  'Mother Jones', 'The Intercept', 'ProPublica', 'Snopes', 'Refinery29', 'Cosmopolitan',
  // Websites, marketplaces of second-hand goods and platforms people cite as a source.
  'Change.org', 'Wikipedia', 'Quora', 'Substack', 'Tumblr', 'WordPress', 'WordPress.com', 'Goodreads', 'IMDb',
  'Rotten Tomatoes', 'Metacritic', 'Letterboxd', 'SoundCloud', 'Bandcamp', 'DistroKid', 'Audiomack', 'Deezer', 'Shazam',
  'Vimeo', 'Dailymotion', 'Rumble', 'Facebook Watch', 'Facebook Live', 'Instagram Live', 'Mastodon', 'Bluesky',
  'Truth Social', 'Parler', 'Nextdoor', 'Craigslist', 'Gumtree', 'Poshmark', 'Depop', 'Vinted', 'Mercari', 'OfferUp',
  'Listia', 'Facebook Marketplace', 'Groupon', 'Patreon', 'OnlyFans', 'Kickstarter', 'Indiegogo', 'GoFundMe',
  'Eventbrite', 'Ticketmaster', 'StubHub', 'Fandango', 'OpenTable', 'Zillow', 'Redfin', 'Rightmove', 'Indeed',
  'Glassdoor', 'Tinder', 'Bumble', 'Grindr', 'Waze', 'Apple Maps', 'Google News Showcase', 'Flipboard', 'Feedly',
];
