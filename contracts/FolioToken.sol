// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// A USDC-like test dollar for local chains: 6 decimals and ERC-2612 permits.
/// The whole supply goes to `holder` at deployment; there is no mint afterwards.
contract FolioToken is ERC20, ERC20Permit {
    constructor(string memory name_, string memory symbol_, address holder, uint256 supply)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
    {
        _mint(holder, supply);
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
