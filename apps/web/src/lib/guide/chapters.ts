/**
 * The rules guide, written for this site in plain words and laid out like the rulebook: one
 * chapter per rulebook section, and every statement names the section it explains. Where the
 * rulebook is unclear, the site's reading is the one in docs/rules-decisions.md; the guide only
 * describes what the game does.
 */

/** One thing the guide says, with the rulebook section it comes from. */
interface Statement {
  readonly text: string;
  readonly cite: string;
}

interface GuideSection {
  /** The rulebook section this part explains, also its address: #/guide/<id>. */
  readonly id: string;
  readonly title: string;
  readonly statements: readonly Statement[];
}

export interface GuideChapter {
  readonly id: string;
  readonly title: string;
  readonly sections: readonly GuideSection[];
}

const s = (text: string, cite: string): Statement => ({ text, cite });

export const GUIDE: readonly GuideChapter[] = [
  {
    id: '1',
    title: 'The game in brief',
    sections: [
      {
        id: '1',
        title: 'What happens in a world',
        statements: [
          s(
            'You lead a people through a cycle: a barbarian horde that grows, settles as a kingdom and swells into an empire, which in time falls apart.',
            '1',
          ),
          s(
            'You may join a running world at any time. You start as a new horde at the start of the next game turn.',
            '1',
          ),
          s(
            'When a position goes badly you may give it up and start again as a fresh horde: a new cycle.',
            '14.3',
          ),
          s(
            'Victory points are earned per cycle and never taken away. The standings compare your best cycle.',
            '14.3',
          ),
          s('A game turn stands for about ten years.', '1'),
        ],
      },
    ],
  },
  {
    id: '2',
    title: 'The map and the counters',
    sections: [
      {
        id: '2.1',
        title: 'The map',
        statements: [
          s(
            'The map is cut into land areas, grouped into provinces, and sea areas. Only ships, and what they carry, enter a sea area.',
            '2.1',
          ),
          s(
            'Rivers and mountain ranges run along area borders. Attacking across one halves the attacker.',
            '2.1',
          ),
          s('Red lines are roads: a unit that moves only along roads goes one area further.', '5.1'),
          s(
            'Red arrows are the only places where land units cross the sea, straight from one end to the other.',
            '2.1',
          ),
          s(
            'Red dots are cities, each with a tax value. Hollow circles are optional cities, in play only when that rule is on.',
            '2.1',
          ),
          s(
            'The imperial boundary surrounds every regular city; an empire’s units outside it need support.',
            '11.5',
          ),
          s('Start positions (GERMAN 1, HUN, VIKING …) are where new hordes appear.', '4.2'),
        ],
      },
      {
        id: '2.3',
        title: 'Reading a counter',
        statements: [
          s(
            'A counter shows two numbers: strength, then movement. "Bw 2-3" is a bow of strength 2 that moves 3 areas; "In 3-3" is barbarian infantry, strength 3, movement 3; "In 4-2" is a kingdom’s infantry.',
            '2.3',
          ),
          s(
            'A strength in brackets means the unit defends but never attacks. "Tribe (1)-1" is a tribe of strength 1 moving 1 area; tribes may still attack other tribes.',
            '2.3',
          ),
          s('"Ga (4)-0" is an empire garrison: it defends with 4 and never moves.', '11.3'),
          s('A leader, "Ld +1", has no strength: it moves the odds one column in its side’s favour.', '10.2'),
          s(
            'Neutral garrisons guard unowned cities. They never move or attack and defend with the city’s tax value, at least 2.',
            '14.1',
          ),
          s('Capital and pillage markers have no strength and block nobody.', '2.3'),
        ],
      },
    ],
  },
  {
    id: '3',
    title: 'Friends, cities and money',
    sections: [
      {
        id: '3',
        title: 'Definitions',
        statements: [
          s(
            'Your units are friendly; everyone else’s, neutral garrisons included, are unfriendly. Your units never attack each other.',
            '3',
          ),
          s(
            'A city belongs to the last player who had a unit (not a lone leader) in its area when an economic phase began. Passing through does not take it.',
            '3',
          ),
          s('Each city pays its tax value in money every turn to its owner.', '3'),
        ],
      },
    ],
  },
  {
    id: '4',
    title: 'The turn',
    sections: [
      {
        id: '4.1',
        title: 'Who moves first',
        statements: [
          s(
            'The player who started their cycle most recently moves first; old empires usually move last.',
            '4.1',
          ),
          s('Players who started in the same turn are ordered by a roll of two dice.', '4.1'),
        ],
      },
      {
        id: '4.2',
        title: 'Starting a horde',
        statements: [
          s('A new horde places one tribe on a free start position at the start of a game turn.', '4.2'),
          s(
            'A start position is taken while another player’s horde or kingdom that began there exists; once that player is an empire, it is free again.',
            '4.2',
          ),
          s(
            'If the start area is occupied, the tribe goes to a free land area next to it; if there is none, that position cannot be used this turn.',
            '9',
          ),
        ],
      },
      {
        id: '4.3',
        title: 'Your player turn',
        statements: [
          s(
            'Each player in turn order plays every phase of a player turn: combination, growth, movement, unit creation, combat.',
            '4.3',
          ),
          s('A kingdom or an empire skips the tribal phases and starts with movement.', '4.3'),
        ],
      },
      {
        id: '4.3.1',
        title: 'Tribal combination',
        statements: [
          s(
            'Pairs of tribes may combine: each may step one area so that both end in the same area, where they are turned over.',
            '4.3.1',
          ),
          s(
            'A combined pair sits out growth and movement this turn. After movement a die on your people’s creation table decides what fighting unit(s) it becomes.',
            '4.3.4',
          ),
          s('A tribe may not both combine and split in the same turn.', '9.1'),
        ],
      },
      {
        id: '4.3.2',
        title: 'Tribal growth',
        statements: [
          s('Each tribe that did not combine may split into two tribes in the same area.', '4.3.2'),
          s('No tribe may grow in a turn you began with any fighting (non-tribe) unit on the map.', '9.2'),
          s('A horde never has more than 36 tribes.', '9.3.3'),
          s(
            'After movement only one tribe may stay in an area, so spread the two halves of a split apart in the movement phase.',
            '9.2',
          ),
        ],
      },
      {
        id: '4.3.3',
        title: 'Movement',
        statements: [
          s(
            'Every unit may move up to its movement number of areas; combined tribes and units with movement 0 stay.',
            '4.3.3',
          ),
          s(
            'At the end of movement, extra tribes in an area are removed (one tribe per area) and then stacking is enforced.',
            '4.3.3',
          ),
          s(
            'Before you confirm a move, the orders panel and the map tell you what it would cost: units lost to stacking, a horde cut apart, support lost.',
            '6',
          ),
        ],
      },
      {
        id: '4.3.5',
        title: 'Combat phase',
        statements: [
          s(
            'Your units may attack unfriendly units next to them. Attacks are voluntary, except a landing from the sea.',
            '7.1',
          ),
          s('Stacking is checked again when combat ends.', '6'),
        ],
      },
      {
        id: '4.5',
        title: 'Economic phase',
        statements: [
          s(
            'City ownership is settled first. Then everyone decides at once and the results are applied in turn order.',
            '4.5',
          ),
          s(
            'You collect the tax of your unpillaged cities; a kingdom or empire with its capital on the map gets 2 more.',
            '4.5.1',
          ),
          s(
            'A barbarian may pillage an occupied city instead: three times its tax, after which the city pays nothing for five turns.',
            '9.5',
          ),
          s(
            'Kingdoms and empires then pay upkeep for their units, and may buy units and a better administration column with what is left.',
            '4.5.2',
          ),
          s('Every money you collect is also a victory point.', '14.3.1'),
        ],
      },
      {
        id: '4.6',
        title: 'Administration phase',
        statements: [
          s(
            'Barbarians check continuity (a horde cut apart keeps one group), tribal unrest and the kingdom countdown.',
            '4.6',
          ),
          s(
            'Kingdoms and empires roll on the administration table; rebellions and the change to empire come from it.',
            '4.6',
          ),
          s(
            'A player who declared it gives up their position here and may start a new horde next turn.',
            '14.3',
          ),
        ],
      },
    ],
  },
  {
    id: '5',
    title: 'Movement',
    sections: [
      {
        id: '5.1',
        title: 'Moving on land',
        statements: [
          s(
            'A unit enters as many areas as its movement number; the area it starts in does not count.',
            '5.1',
          ),
          s(
            'No unit enters or passes an area holding an unfriendly unit, except a lone leader or a lone capital marker.',
            '5.1',
          ),
          s(
            'You may pass through your own units even beyond the stacking limit, as long as the area you stop in is legal.',
            '5.1',
          ),
          s('There are no zones of control: moving next to enemies costs nothing.', '5.1'),
          s('A unit that starts on a road and moves only along roads goes one area further.', '5.1'),
          s('Tribes never enter deserts (Arab and African tribes may).', '9.3.1'),
        ],
      },
      {
        id: '5.2',
        title: 'Ships',
        statements: [
          s('Ships move through sea areas or along the coast and must end in a coastal area.', '5.2'),
          s(
            'A ship carries one unit and one leader. The carried unit may not move on its own in the same turn.',
            '5.2',
          ),
          s(
            'A ship that crosses sea areas rolls a die: if the roll is not above the number of sea areas entered, it sinks with its cargo.',
            '5.3',
          ),
        ],
      },
    ],
  },
  {
    id: '6',
    title: 'Stacking',
    sections: [
      {
        id: '6',
        title: 'How many units share an area',
        statements: [
          s('Two units at most may share an area, and never with an unfriendly unit.', '6'),
          s(
            'A tribe or a garrison stands alone. The one exception is a combined pair of tribes until it is turned into fighting units.',
            '6',
          ),
          s(
            'Only one big unit (strength 3, 4 or 5) per area; a small one (strength 1 or 2) may join any other unit.',
            '6',
          ),
          s('Leaders and markers never count.', '6'),
          s(
            'Stacking is checked at the end of movement and at the end of combat; you choose which extra units go.',
            '6',
          ),
        ],
      },
    ],
  },
  {
    id: '7',
    title: 'Land combat',
    sections: [
      {
        id: '7.1',
        title: 'Making an attack',
        statements: [
          s(
            'All unfriendly units in one area are attacked together, by all the units you choose from next to it, as one combat.',
            '7.1',
          ),
          s('No unit attacks twice in a turn and no defender is attacked twice in a turn.', '7.1'),
          s(
            'Attackers across a river, a mountain range or a red arrow, and units landing from the sea, count half. Defenders are never halved; ships never are.',
            '7.1',
          ),
          s(
            'Divide the attack by the defence and round down to a column of the combat table; leaders and some optional rules then shift the column.',
            '7.1',
          ),
          s(
            'Two dice are rolled and read in that column. The orders panel shows the chance of each result before you confirm.',
            '7.1',
          ),
        ],
      },
      {
        id: '7.2',
        title: 'Combat results',
        statements: [
          s('DE: every defender is removed; one or two attackers may advance into the empty area.', '7.2'),
          s('DR1, DR2, DR3: the defenders retreat that many areas. AR1–AR3: the attackers do.', '7.2'),
          s(
            'EX: the side with the smaller printed strength is wiped out; the other side loses at least as much strength.',
            '7.2',
          ),
          s('AE: every attacker is removed.', '7.2'),
          s(
            'A unit that cannot retreat far enough, or would be overstacked on the way, is lost. Winners may pursue along the retreat path.',
            '7.2',
          ),
        ],
      },
      {
        id: '7.3',
        title: 'Retreats',
        statements: [
          s(
            'The owner picks the path: never overstacked, ending away from the units it fought if possible, and into unfriendly cities only if nothing else works.',
            '7.3',
          ),
          s('A retreat never enters an area with an unfriendly unit.', '7.3'),
        ],
      },
    ],
  },
  {
    id: '8',
    title: 'War at sea',
    sections: [
      {
        id: '8.1',
        title: 'Interception and landings',
        statements: [
          s(
            'A ship passing a sea area next to an unfriendly ship may be intercepted and must then fight it.',
            '8.1',
          ),
          s(
            'One or two ships, or a ship and its cargo, may land in a coastal area held by the enemy and must attack there in the combat phase; the carried unit counts half.',
            '8.2',
          ),
          s('A lone ship beaten with DE may be captured instead of sunk.', '8.4'),
        ],
      },
    ],
  },
  {
    id: '9',
    title: 'Barbarians',
    sections: [
      {
        id: '9.1',
        title: 'Making fighting units',
        statements: [
          s('Tribes are weak and slow; combining pairs of them is how a horde gets fighting units.', '9.1'),
          s('New units may attack in the combat phase of the turn they appear.', '9.1'),
        ],
      },
      {
        id: '9.3.4',
        title: 'Keeping the horde together',
        statements: [
          s(
            'All your tribes must form one group, linked through neighbouring areas that hold your tribes or your barbarian fighting units.',
            '9.3.4',
          ),
          s(
            'If they are cut apart, in the administration phase you keep one group and the tribes of every other group are removed.',
            '9.3.4',
          ),
        ],
      },
      {
        id: '9.3.x',
        title: 'Becoming a kingdom',
        statements: [
          s(
            'The countdown starts in the first administration phase in which you have ten or more units. It cannot be stopped.',
            '9.3.x',
          ),
          s(
            'Six turns later (Vikings and Huns eight, Turks and Arabs five) the horde becomes a kingdom: tribes go, fighting units turn into kingdom units, and you get a leader and a capital.',
            '10.1',
          ),
          s('A horde that never reaches ten units never becomes a kingdom.', '9.3.x'),
        ],
      },
      {
        id: '9.3.5',
        title: 'Tribal unrest',
        statements: [
          s(
            'With 15 or more units, at least one of them a fighting unit, and no attack made this turn, a die of 1–3 costs you twice another die in units.',
            '9.3.5',
          ),
          s('With 25 or more units a second such roll is made, attack or not.', '9.3.5'),
        ],
      },
      {
        id: '9.4',
        title: 'Barbarian money',
        statements: [
          s(
            'Barbarians collect tax like everyone but buy nothing and pay no upkeep. The hoard goes with them into the kingdom.',
            '9.4',
          ),
        ],
      },
    ],
  },
  {
    id: '10',
    title: 'Kingdoms',
    sections: [
      {
        id: '10.3',
        title: 'Capital, upkeep and purchases',
        statements: [
          s(
            'The capital stands on one of your cities and adds 2 to your tax. An enemy standing on it when you collect takes a third of your treasury.',
            '10.3',
          ),
          s(
            'Upkeep is paid every turn: horse 3, infantry 2, bow 1, ship 2. If the money is short you disband just enough units.',
            '10.4',
          ),
          s('New units cost twice their upkeep and appear in your cities.', '10.5'),
        ],
      },
      {
        id: '10.6',
        title: 'Administration',
        statements: [
          s(
            'Every administration phase a kingdom rolls two dice on the administration table; money spent beforehand buys a better column.',
            '10.6',
          ),
          s(
            'Results range from good rulers and revivals to corruption and rebellions; a low number turns the kingdom into an empire.',
            '10.6',
          ),
        ],
      },
    ],
  },
  {
    id: '11',
    title: 'Empires',
    sections: [
      {
        id: '11.1',
        title: 'The empire stage',
        statements: [
          s(
            'On becoming an empire, horses turn into elites, bows are lost, and infantry may become garrisons; the leader is lost.',
            '11.1',
          ),
          s('Upkeep rises: elite 5, infantry 3, ship 2, garrison 1.', '11.2'),
          s('Elites may refuse to retreat.', '11.4'),
          s(
            'Outside the imperial boundary an empire unit needs support, a chain of friendly units back to a free area inside; unsupported units are removed in the economic phase.',
            '11.5',
          ),
        ],
      },
    ],
  },
  {
    id: '13',
    title: 'Optional rules',
    sections: [
      {
        id: '13',
        title: 'What each optional rule changes',
        statements: [
          s(
            'A world’s creator switches optional rules on; all are off unless chosen. The world page lists the ones in play.',
            '13',
          ),
        ],
      },
    ],
  },
  {
    id: '14',
    title: 'The open scenario and victory',
    sections: [
      {
        id: '14.1',
        title: 'Neutral garrisons',
        statements: [
          s(
            'Unowned cities inside the boundary start with neutral garrisons, which must be beaten to take the city.',
            '14.1',
          ),
        ],
      },
      {
        id: '14.3',
        title: 'Victory points and cycles',
        statements: [
          s('Every money collected is a victory point for the current cycle.', '14.3.1'),
          s(
            'You may abandon a position in the administration phase and start a new horde next turn; the points stay.',
            '14.3.2',
          ),
          s(
            'Under the basic victory rule the best single cycle counts; under the advanced rule, the points per turn played.',
            '14.3.2',
          ),
        ],
      },
    ],
  },
];
