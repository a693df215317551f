<?php
/**
 * Replica of Chess League Manager's English imports, written for ecfgrading's client
 * compatibility test (tests/clients/test_php_clients.py).
 *
 * Original: ChessLeagueManager/com_clm (GNU/GPL), commit 5e628e7c,
 * site/clm/api/db_ecfv2_club.php (clm_api_db_ecfv2_club) and
 * site/clm/api/db_ecfv2_player.php (clm_api_db_ecfv2_player). Our own replica of their
 * requests and parsing, nothing copied: file_get_contents of v2/clubs/all_active and
 * v2/rating_list, json_decode to objects, the unit code made valid (htmlentities) and
 * required to be 4 characters, clubs kept where `$verband != $club->assoc_code` is false,
 * the rating list's columns found by name (ECF_code, FIDE_no, full_name, ECF_junior if
 * present, gender, nation, original_standard, club_code), players kept by club code with
 * a non-empty ECF code.
 * Changed: the host (ECF_BASE); the REPLACE INTO statements become the rows they would
 * write, printed as JSON with the function's answer.
 *
 * Run: php clm.php clubs UNIT | php clm.php players CLUB
 */

function base() {
	return getenv( 'ECF_BASE' ) ?: 'https://www.ecfrating.org.uk';
}

function make_valid( $value ) {
	return htmlentities( (string) $value, ENT_QUOTES, 'UTF-8' ); // clm_core::$load->make_valid type 8
}

function ecfv2_club( $verband ) {
	$source  = base() . '/v2/new/api.php?v2/clubs/all_active';
	$verband = make_valid( $verband );
	if ( strlen( $verband ) != 4 ) {
		return array( array( false, 'e_wrongUnitFormat', $verband ), array() );
	}
	$a_out = json_decode( file_get_contents( $source ) );
	$rows  = array();
	foreach ( $a_out->clubs as $club ) {
		if ( $verband != $club->assoc_code ) {
			continue;
		}
		$rows[] = array( 'ZPS' => $club->club_code, 'LV' => 'E', 'Verband' => $club->assoc_code, 'Vereinname' => $club->club_name );
	}
	return array( array( true, 'm_dewisClubSuccess', count( $rows ) ), $rows );
}

function ecfv2_player( $zps ) {
	$source = base() . '/v2/new/api.php?v2/rating_list';
	$zps    = make_valid( $zps );
	if ( strlen( $zps ) != 4 ) {
		return array( array( true, 'e_wrongZPSFormat', $zps ), array() );
	}
	$a_out = json_decode( file_get_contents( $source ) );
	foreach ( $a_out->column_names as $key => $value ) {
		if ( 'ECF_code' == $value ) $i_ECF_code = $key;
		if ( 'FIDE_no' == $value ) $i_FIDE_no = $key;
		if ( 'full_name' == $value ) $i_full_name = $key;
		if ( 'ECF_junior' == $value ) $i_ECF_junior = $key;
		if ( 'gender' == $value ) $i_gender = $key;
		if ( 'nation' == $value ) $i_nation = $key;
		if ( 'original_standard' == $value ) $i_original_standard = $key;
		if ( 'club_code' == $value ) $i_club_code = $key;
	}
	$rows = array();
	foreach ( $a_out->players as $player ) {
		if ( $zps != $player[ $i_club_code ] ) continue;
		if ( '' == $player[ $i_ECF_code ] ) continue;
		$junior = isset( $i_ECF_junior ) && $player[ $i_ECF_junior ] == true ? 1 : 0;
		$gender = 'F' == $player[ $i_gender ] ? 'W' : $player[ $i_gender ];
		$rows[] = array(
			'ZPS'           => $zps,
			'PKZ'           => $player[ $i_ECF_code ],
			'Spielername'   => $player[ $i_full_name ],
			'DWZ'           => $player[ $i_original_standard ],
			'Spielername_G' => strtoupper( $player[ $i_full_name ] ),
			'Geschlecht'    => $gender,
			'Junior'        => $junior,
			'FIDE_Land'     => $player[ $i_nation ],
			'FIDE_ID'       => (int) $player[ $i_FIDE_no ],
			'ECF_code'      => substr( $player[ $i_ECF_code ], 0, -1 ),
		);
	}
	return array( array( true, 'm_ecfv2PlayerSuccess', count( $rows ) ), $rows );
}

[ $answer, $rows ] = 'clubs' === $argv[1] ? ecfv2_club( $argv[2] ) : ecfv2_player( $argv[2] );
echo json_encode( array( 'answer' => $answer, 'rows' => $rows ), JSON_UNESCAPED_UNICODE ), "\n";
