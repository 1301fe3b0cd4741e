/**
 * The words the reply reader reads around a candidate, per language: the user's own ("your"), "like
 * the", a recommendation, advice against, an instruction's verb, a quantity, a place's preposition,
 * the heads of places' and services' names, settings screens' words. They are features of the
 * learned model (./features.ts), not verdicts: a language's reader (models/<lang>/reply.json)
 * learns from its own training replies what each is worth. English's lists are the ones its reader
 * was fitted with; the others were written for issue 28 from each language's grammar (possessives,
 * imperatives of both the familiar and the polite form, the usual kitchen measures).
 */
import type { LexiconLanguage } from '../language-lexicon.js';

export interface ReplyCues {
  own: ReadonlySet<string>;
  like: ReadonlySet<string>;
  recommend: ReadonlySet<string>;
  against: ReadonlySet<string>;
  /** Verbs that open an instruction about a thing the user already has. */
  instruction: ReadonlySet<string>;
  quantity: ReadonlySet<string>;
  /** Prepositions before a place. */
  place: ReadonlySet<string>;
  /** Head words of the names of places, and of services and apps (English: the last word; others: the first or the last). */
  placeHeads: ReadonlySet<string>;
  serviceHeads: ReadonlySet<string>;
  /** Keys and settings screens: the words of a shortcut or a menu item. */
  ui: ReadonlySet<string>;
  /** The article that opens a definite name ("the"); none where articles inflect. */
  the: string | null;
}

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

const EN: ReplyCues = {
  own: set("your my our his her their its you're yours"),
  like: set('like as e.g eg including namely'),
  recommend: set(
    'recommend recommended suggest try get grab consider pick buy choose go check love favorite favourite option options choice ' +
      'worth invest upgrade swap look best top solid great excellent want need splurge budget alternative winner read watch play',
  ),
  against: set("avoid skip don't dont not never instead steer overpriced unless than"),
  instruction: set(
    'unplug plug open close press hold use wipe remove clean restart reboot turn tap click select go set add mix stir preheat heat ' +
      'place put pour check make connect disconnect reset update install uninstall charge let rinse soak fill drain reinstall ' +
      'navigate launch whisk bake cook chop slice season toss combine serve wash dry store keep run switch',
  ),
  quantity: set(
    'cup cups tbsp tsp tablespoon tablespoons teaspoon teaspoons g kg oz ml l lb lbs pinch handful clove cloves slice slices can ' +
      'cans grams pound pounds ounces litre liter dash',
  ),
  place: set('at near from in to via on'),
  placeHeads: set(
    'tower park castle station museum cathedral church monastery abbey palace bridge street square market airport beach island ' +
      'lake river mountain valley falls garden gardens zoo gallery theatre theater stadium hall centre center city village ' +
      'coast bay viewpoint temple shrine basilica fort forest trail line road avenue harbour harbor port pier quarter district ' +
      'grove house building lagoon villa hill hills gate canal wharf terminal pavilion fountain springs cave caves glacier reserve ' +
      'estate mill',
  ),
  serviceHeads: set(
    'app apps store express program programme service services office website site account subscription plan network ' +
      'channel radio podcast platform club membership insurance bank airline airlines railway rail transit cloud tram streetcar ' +
      'ferry metro subway bus railcard pass',
  ),
  ui: set(
    'ctrl control alt option shift cmd command fn esc escape enter return tab delete backspace spacebar settings preferences ' +
      'menu system general privacy security advanced display bluetooth notifications accessibility storage',
  ),
  the: 'the',
};

const KEYS = 'ctrl alt shift cmd fn esc tab';

const LANGUAGE_CUES: Record<LexiconLanguage, ReplyCues> = {
  de: {
    own: set('dein deine deinen deinem deiner deines ihr ihre ihren ihrem ihrer ihres mein meine meinen meinem meiner unser unsere unseren unserem euer eure euren sein seine seinen'),
    like: set('wie etwa z.b zb beispielsweise darunter namentlich'),
    recommend: set(
      'empfehle empfehlen empfehlenswert empfohlen empfehlung rate raten probier probiere probieren greif greifen nimm nehmen kauf ' +
        'kaufe kaufen hol holen wähle wählen lohnt lohnen investiere investieren beste besten bester bestes top favorit tipp ' +
        'alternative option optionen wahl solide hervorragend ideal geeignet brauchst benötigst',
    ),
    against: set('vermeide vermeiden meide nicht kein keine keinen nie niemals statt anstatt stattdessen abraten überteuert als'),
    instruction: set(
      'zieh ziehe ziehen öffne öffnen drück drücke drücken entferne entfernen reinige reinigen schalte schalten stell stelle stellen ' +
        'leg lege legen gib geben füge fügen halte halten tippe tippen klicke klicken starte starten prüfe prüfen spüle spülen lass ' +
        'lassen wische wischen trockne trocknen fülle füllen mische mischen rühre rühren heize heizen schneide schneiden backe ' +
        'koche wasche waschen verbinde verbinden trenne trennen setze setzen lade laden entkalke entkalken gehe gehen',
    ),
    quantity: set('g kg ml l el tl esslöffel teelöffel prise tasse tassen gramm liter stück dose dosen becher bund zehe zehen scheibe scheiben handvoll packung'),
    place: set('in im bei beim nach zum zur von vom aus am an'),
    placeHeads: set(
      'turm park schloss burg bahnhof museum dom kirche kloster palast brücke straße strasse platz markt flughafen strand insel ' +
        'see fluss berg tal garten zoo galerie theater stadion halle zentrum stadt dorf küste bucht hafen viertel altstadt wald höhle tor',
    ),
    serviceHeads: set('app apps store dienst service programm konto abo abonnement tarif netz kanal sender podcast plattform club verein mitgliedschaft versicherung bank airline bahn cloud website webseite'),
    ui: set(`einstellungen menü system allgemein datenschutz sicherheit anzeige bluetooth mitteilungen bedienungshilfen speicher strg entf eingabe umschalt ${KEYS}`),
    the: null,
  },
  fr: {
    own: set('ton ta tes votre vos mon ma mes notre nos son sa ses leur leurs'),
    like: set('comme notamment exemple dont tel telle tels telles ex'),
    recommend: set(
      'recommande recommander recommandé recommandée conseille conseiller conseillé suggère suggérer essayez essaie essayer optez ' +
        'opte opter choisir choisissez choisis prenez prends prendre achetez achète acheter investissez investir craquez craquer ' +
        'meilleur meilleure meilleurs meilleures top excellent excellente solide idéal idéale option options choix alternative ' +
        'favori vaut mérite envisagez envisager privilégiez privilégier orientez orienter',
    ),
    against: set('évitez éviter évite pas jamais plutôt sauf déconseille déconseillé inutile surcoté'),
    instruction: set(
      'débranchez débranche branchez branche ouvrez ouvre fermez ferme appuyez appuie maintenez retirez retire enlevez enlève ' +
        'nettoyez nettoie redémarrez éteignez allumez tournez touchez cliquez sélectionnez allez réglez ajoutez ajoute remuez ' +
        'préchauffez chauffez faites placez mettez mets versez verse vérifiez vérifie connectez déconnectez réinitialisez ' +
        'installez désinstallez chargez laissez laisse rincez rince trempez remplissez videz lavez séchez essuyez détartrez coupez servez',
    ),
    quantity: set('g kg ml cl l cuillère cuillères càs càc pincée gramme grammes litre litres tasse tasses verre verres gousse gousses tranche tranches boîte boîtes sachet sachets poignée'),
    place: set('à au aux chez près depuis vers en dans'),
    placeHeads: set(
      'tour parc château gare musée cathédrale église abbaye palais pont rue place marché aéroport plage île lac rivière montagne ' +
        'vallée jardin zoo galerie théâtre stade salle centre ville village côte baie port quartier forêt grotte porte avenue boulevard',
    ),
    serviceHeads: set('application appli app store service services programme compte abonnement forfait réseau chaîne radio podcast plateforme club assurance banque compagnie site cloud'),
    ui: set(`paramètres réglages menu système général confidentialité sécurité affichage accessibilité stockage maj entrée ${KEYS}`),
    the: null,
  },
  es: {
    own: set('tu tus su sus mi mis nuestro nuestra nuestros nuestras vuestro vuestra vuestros vuestras'),
    like: set('como ejemplo incluido incluidos incluyendo tipo'),
    recommend: set(
      'recomiendo recomendaría recomendable recomendado recomendada recomendar aconsejo aconsejaría sugiero sugeriría prueba probar ' +
        'pruebe elige elegir elija opta optar opte compra comprar compre coge hazte invierte invertir mejor mejores top excelente ' +
        'sólida sólido ideal opción opciones alternativa favorito favorita merece considera considerar apuesta apostar quédate',
    ),
    against: set('evita evitar evite no nunca jamás salvo excepto desaconsejo sobrevalorado'),
    instruction: set(
      'desenchufa desenchufe enchufa abre abra cierra pulsa pulse presiona mantén retira quita limpia limpie reinicia apaga enciende ' +
        'gira toca haz selecciona ve ajusta añade añada mezcla remueve precalienta calienta coloca pon ponga vierte revisa comprueba ' +
        'conecta desconecta restablece actualiza instala desinstala carga deja enjuaga remoja llena vacía lava seca pasa frota ' +
        'descalcifica corta sirve',
    ),
    quantity: set('g kg ml l cucharada cucharadas cucharadita cucharaditas pizca gramo gramos litro litros taza tazas vaso vasos diente dientes rodaja rodajas lata latas sobre puñado'),
    place: set('en a al desde cerca hacia por'),
    placeHeads: set(
      'torre parque castillo estación museo catedral iglesia monasterio palacio puente calle plaza mercado aeropuerto playa isla ' +
        'lago río montaña valle jardín zoo galería teatro estadio sala centro ciudad pueblo costa bahía puerto barrio bosque cueva puerta avenida',
    ),
    serviceHeads: set('aplicación app tienda servicio servicios programa cuenta suscripción tarifa plan red canal radio pódcast podcast plataforma club seguro banco aerolínea web página nube'),
    ui: set(`ajustes configuración menú sistema general privacidad seguridad pantalla accesibilidad almacenamiento mayús intro ${KEYS}`),
    the: null,
  },
  it: {
    own: set('tuo tua tuoi tue suo sua suoi sue mio mia miei mie nostro nostra nostri nostre vostro vostra vostri vostre loro'),
    like: set('come esempio tipo incluso inclusi compreso ovvero'),
    recommend: set(
      'consiglio consiglierei consigliato consigliata consigliabile consigliare raccomando suggerisco suggerirei prova provare provi ' +
        'scegli scegliere scelga opta optare compra comprare compri prendi prendere punta puntare investi investire migliore migliori ' +
        'top ottimo ottima ottimi solido solida ideale opzione opzioni scelta alternativa preferito preferita merita valuta considera orientati',
    ),
    against: set('evita evitare eviti non mai invece tranne salvo sconsiglio sconsigliato sopravvalutato'),
    instruction: set(
      'scollega stacca collega apri chiudi premi tieni rimuovi togli pulisci riavvia spegni accendi gira ruota tocca clicca seleziona ' +
        'vai imposta aggiungi mescola preriscalda scalda riscalda metti posiziona versa controlla verifica connetti disconnetti ' +
        'ripristina aggiorna installa disinstalla carica lascia risciacqua sciacqua immergi riempi svuota lava asciuga passa strofina ' +
        'decalcifica taglia servi',
    ),
    quantity: set('g kg ml l cucchiaio cucchiai cucchiaino cucchiaini pizzico grammo grammi litro litri tazza tazze bicchiere bicchieri spicchio spicchi fetta fette lattina barattolo bustina manciata'),
    place: set('a al alla in nel nella da dal presso vicino verso'),
    placeHeads: set(
      'torre parco castello stazione museo cattedrale duomo chiesa monastero abbazia palazzo ponte via piazza mercato aeroporto ' +
        'spiaggia isola lago fiume montagna valle giardino zoo galleria teatro stadio sala centro città paese borgo costa baia porto ' +
        'quartiere bosco grotta porta corso',
    ),
    serviceHeads: set('app applicazione negozio servizio servizi programma account abbonamento tariffa piano rete canale radio podcast piattaforma club assicurazione banca compagnia sito cloud'),
    ui: set(`impostazioni menu sistema generali privacy sicurezza schermo accessibilità archivio maiusc invio ${KEYS}`),
    the: null,
  },
};

/** The cues of the language a reply is read in (English when absent). */
export function replyCues(language: LexiconLanguage | undefined): ReplyCues {
  return language ? LANGUAGE_CUES[language] : EN;
}
